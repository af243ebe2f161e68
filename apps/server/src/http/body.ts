import type { IncomingMessage } from 'node:http';
import { MAX_JSON_NESTING, jsonTextDeeperThan } from '@mds/core';
import { ApiError, badRequest } from '@mds/schema';

const isJsonType = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');

/** 415 unless the request says its body is JSON. (CORS-simple content types never reach a handler: CSRF.) */
export function requireJsonContentType(req: IncomingMessage): void {
  if (!isJsonType(req.headers['content-type'])) {
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Unsupported content type ${JSON.stringify(req.headers['content-type'] ?? '')}: send application/json`,
    );
  }
}

/** How slowly a body may arrive: any pace for `graceMs`, then at least `minBytesPerSecond` on average since reading began. */
export interface BodyPace {
  graceMs: number;
  minBytesPerSecond: number;
}

/** How much of a body is read, how fast it must come, and what answers one over `limit`. */
export interface BodyRules {
  limit: number;
  pace: BodyPace;
  /** The refusal of a body over `limit` (a 413 naming it unless given), answered once the body is read or cut. */
  tooLarge?: () => ApiError;
}

/**
 * How deep a request body may nest. No body mds takes nests much deeper than an aspect value (at most
 * MAX_JSON_NESTING levels, the rule of @mds/core) inside its envelope (an MCE snapshot adds 7); twice that leaves room
 * and stays far below what overflows the stack of recursive code (JSON.stringify, at a few thousand levels).
 */
export const MAX_BODY_NESTING = 2 * MAX_JSON_NESTING;

/**
 * Reads a JSON body, refusing with 413 as soon as it passes `limit` bytes (announced or streamed), so an oversized
 * body is never buffered whole; with 408 when it arrives slower than `pace`; with 400 when it nests deeper than
 * MAX_BODY_NESTING, found by a scan of the text before it is parsed. An empty body reads as `undefined`.
 */
export async function readJsonBody(req: IncomingMessage, rules: BodyRules): Promise<unknown> {
  const text = await readText(req, rules);
  if (text === '') return undefined;
  if (jsonTextDeeperThan(text, MAX_BODY_NESTING)) {
    throw badRequest(
      `Request body is nested more than ${MAX_BODY_NESTING} levels deep; JSON values (aspects, their systemMetadata) may nest at most ${MAX_JSON_NESTING}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A body over the limit is still read to its end, and thrown away, before the 413 is answered: a client that is
 * still uploading when the server closes sees a reset (EPIPE, "socket hang up") instead of the answer, as Node's fetch
 * and Python's requests do. Reading on is bounded: a body past LINGER_MAX_BYTES in all, or still arriving after
 * LINGER_MS, gets its 413 at once and the connection is cut (the answer says `Connection: close`).
 */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
export const LINGER_MS = 10_000;

/**
 * The body as text; a 400 when the connection closes before it arrived. A request whose connection is already gone
 * (the client left, or node's request timeout fired, while it waited unread for an ingest slot) rejects at once: its
 * stream will never end, and whoever waits on it would keep its slot forever.
 *
 * The pace is kept by one timer, set for the moment the bytes received so far stop being enough and moved on when
 * more have come by then: a slow sender is cut (408) at the first moment it falls behind, and nothing is done per
 * chunk.
 */
function readText(req: IncomingMessage, { limit, pace, tooLarge = () => payloadTooLarge(limit) }: BodyRules): Promise<string> {
  const announced = Number(req.headers['content-length']);
  if (announced > LINGER_MAX_BYTES) return Promise.reject(tooLarge());
  const gone = () => badRequest('The connection closed before the request body arrived');
  if (req.destroyed) return Promise.reject(gone());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let lingering: NodeJS.Timeout | undefined;
    const started = performance.now();
    /** When the bytes received so far stop being enough. */
    const due = () => started + pace.graceMs + (size / pace.minBytesPerSecond) * 1000;
    const checkPace = () => {
      const now = performance.now();
      if (now < due()) return void (paced = setTimeout(checkPace, due() - now));
      finish(tooSlow(size, announced, now - started, pace));
    };
    // A body that has arrived whole (it came with its headers, as a small one does) cannot fall behind: no timer.
    let paced = req.complete ? undefined : setTimeout(checkPace, due() - started);
    const finish = (error?: ApiError) => {
      clearTimeout(lingering);
      clearTimeout(paced);
      req.off('data', onData);
      req.off('end', onEnd);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size).toString('utf8'));
    };
    const refuse = () => finish(tooLarge());
    const overLimit = () => {
      if (lingering) return;
      chunks.length = 0; // read on, keep nothing
      lingering = setTimeout(refuse, LINGER_MS);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > LINGER_MAX_BYTES) return refuse();
      if (lingering || size > limit) return overLimit();
      chunks.push(chunk);
    };
    const onEnd = () => (lingering ? refuse() : finish());
    req.on('data', onData);
    req.once('end', onEnd);
    if (announced > limit) overLimit();
    // A connection that closes before the request arrived whole destroys it with node's 'aborted' error: the client
    // left (or node's request timeout fired), which is no failure of the server's.
    req.once('error', (error) => {
      clearTimeout(lingering);
      clearTimeout(paced);
      reject(req.complete ? error : gone());
    });
  });
}

const payloadTooLarge = (limit: number) => new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit} bytes`);

function tooSlow(received: number, announced: number, elapsedMs: number, pace: BodyPace): ApiError {
  const of = Number.isFinite(announced) ? ` of ${announced}` : '';
  return new ApiError(
    'REQUEST_TIMEOUT',
    `Request body arrived too slowly: ${received}${of} bytes in ${(elapsedMs / 1000).toFixed(1)} s; after ${pace.graceMs / 1000} s a body must come at ${pace.minBytesPerSecond} bytes a second or faster (BODY_READ_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND)`,
  );
}
