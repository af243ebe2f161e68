import { request } from 'node:http';
import { connect } from 'node:net';

// Requests fetch would refuse to send: any method, repeated or oversized headers, and (raw) bytes that are not
// even valid HTTP. Connection failures resolve (status 0, or -1 when nothing was sent; `error` set) so a caller can
// judge them.

export interface Exchange {
  /** 0 when no answer arrived; -1 when node refused to build the request, so nothing was sent (`send` only). */
  status: number;
  body: string;
  error?: string;
}

export interface HttpRequestSpec {
  method: string;
  path: string;
  /** An array value sends the header once per element. */
  headers: Record<string, string | string[]>;
  body?: string;
}

const TIMEOUT_MS = 15_000;
const RAW_TIMEOUT_MS = 5_000;

/**
 * One exchange through node:http, on a connection of its own: reusing one would let a previous answer that closed it
 * (a 400 or 431 from node's parser) fail the next request with a reset that is no fault of the server.
 */
export function send(baseUrl: string, spec: HttpRequestSpec): Promise<Exchange> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (exchange: Exchange) => {
      if (!settled) resolve(exchange);
      settled = true;
    };
    let req;
    try {
      req = request(baseUrl + spec.path, { method: spec.method, headers: spec.headers, agent: false, timeout: TIMEOUT_MS });
    } catch (error) {
      // node refused to build the request itself (e.g. an invalid header): nothing reached the server.
      return done({ status: -1, body: '', error: (error as Error).message });
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => done({ status: res.statusCode ?? 0, body: '', error: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => done({ status: 0, body: '', error: error.code ?? error.message }));
    req.end(spec.body);
  });
}

/**
 * Writes `bytes` on a fresh connection (latin1: every char is one byte), then reads until `answers` whole answers have
 * arrived (each with its announced length), the server closes, or 5 s pass. `status` and `body` are the first
 * answer's (its body runs on into any later answer); `text` is every byte received.
 */
export function sendRaw(baseUrl: string, bytes: string, answers = 1): Promise<Exchange & { text: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => socket.destroy(), RAW_TIMEOUT_MS);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (completeAnswers(Buffer.concat(chunks).toString('latin1')) >= answers) socket.destroy();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status, body, text, error: status ? undefined : (error ?? 'closed without an answer') });
    });
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

/**
 * How many whole answers with a Content-Length `text` holds, from its start (a keep-alive answer does not close the
 * connection); counting stops at an answer without one.
 */
function completeAnswers(text: string): number {
  let count = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\r\n\r\n', start);
    if (end < 0) return count;
    const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(start, end))?.[1];
    const next = end + 4 + Number(length); // latin1: one char per byte
    if (length === undefined || next > text.length) return count;
    count++;
    start = next;
  }
}
