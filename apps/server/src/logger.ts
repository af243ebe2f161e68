import { pino, type Logger } from 'pino';

export type { Logger };

/** Lines gather in memory up to this size before a write… */
const WRITE_AT_BYTES = 64 * 1024;
/** …and leave at least this often, so a quiet server's lines still appear at once to the eye. */
const FLUSH_EVERY_MS = 100;

/**
 * JSON lines on stdout. Credentials never reach a log line, wherever they sit in the logged object.
 *
 * Lines gather in memory and leave in one write at 64 KiB, and at least every 100 ms: under load the log then costs
 * one write per few hundred requests rather than one per request (`pnpm bench --only logCost`: 22 % of tag(urn)
 * throughput with a write per line, 3.5 % so). The writes are synchronous (pino's SonicBoom, which retries a full
 * pipe), so what is buffered is written at exit too; a process killed with SIGKILL loses at most the last 100 ms.
 */
export function createLogger(level: string): Logger {
  const options = {
    level,
    base: undefined,
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'token', '*.token'],
      censor: '[redacted]',
    },
  };
  if (level === 'silent') return pino(options);
  const destination = pino.destination({ dest: 1, sync: true, contentMode: 'buffer' });
  // contentMode 'buffer' takes Buffers, which SonicBoom's typings (strings only) do not say.
  const writeOut = destination.write.bind(destination) as unknown as (bytes: Buffer) => void;
  // Lines are copied into this off-heap buffer at once: held as strings until the flush, they would outlive the
  // young generation (4 MB, see config.serverNodeOptions) and be copied and promoted, which cost more than the lines.
  const pending = Buffer.allocUnsafe(WRITE_AT_BYTES);
  let used = 0;
  const flush = () => {
    if (used === 0) return;
    writeOut(Buffer.from(pending.subarray(0, used)));
    used = 0;
  };
  setInterval(flush, FLUSH_EVERY_MS).unref();
  process.once('exit', flush);
  return pino(options, {
    write(line: string) {
      if (used + Buffer.byteLength(line) > WRITE_AT_BYTES) flush();
      if (Buffer.byteLength(line) > WRITE_AT_BYTES) return writeOut(Buffer.from(line));
      used += pending.write(line, used);
    },
  });
}

/** What the request log line says about one answered request. */
export interface RequestLine {
  requestId: string;
  method: string | undefined;
  path: string;
  /** The GraphQL operation or Rest.li action; '' for none (then left out). */
  operation: string;
  status: number;
  ms: number;
}

/**
 * The per-request `info` line, written straight to the logger's stream in the logger's own format (pino's level,
 * time and msg keys). Built by hand because pino's generic path (serializers, redaction over every key) cost ~9 µs
 * per line, a fifth of a cached read; the fields here are the server's own, never credentials. Returns undefined
 * when `info` is off.
 */
export function requestLogger(logger: Logger): ((line: RequestLine) => void) | undefined {
  if (!logger.isLevelEnabled('info')) return undefined;
  const stream = (logger as unknown as Record<symbol, { write(text: string): void }>)[pino.symbols.streamSym]!;
  const level = logger.levels.values.info;
  return ({ requestId, method, path, operation, status, ms }) => {
    // requestId is a UUID or matched [\w.:-] (app.ts); method is a token node validated: neither needs escaping.
    const op = operation ? `,"operation":${JSON.stringify(operation)}` : '';
    stream.write(
      `{"level":${level},"time":${Date.now()},"requestId":"${requestId}","method":"${method}","path":${JSON.stringify(path)}${op},"status":${status},"ms":${ms},"msg":"request"}\n`,
    );
  };
}
