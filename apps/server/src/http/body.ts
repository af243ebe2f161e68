import type { IncomingMessage } from 'node:http';
import { ApiError, badRequest } from '@mds/schema';

const isJsonType = (type: string | undefined) => /^application\/json\s*(;|$)/i.test(type ?? '');

/** 415 unless the request says its body is JSON. (CORS-simple content types never reach a handler: CSRF.) */
export function requireJsonContentType(req: IncomingMessage): void {
  if (!isJsonType(req.headers['content-type'])) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Unsupported content type ${JSON.stringify(req.headers['content-type'] ?? '')}: send application/json`);
  }
}

/**
 * Reads a JSON body, refusing with 413 as soon as it passes `limit` bytes (announced or streamed), so an oversized
 * body is never buffered whole. An empty body reads as `undefined`.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const text = await readText(req, limit);
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(`Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The body as text; a 400 when the connection closes before it arrived. A request whose connection is already gone
 * (the client left, or node's request timeout fired, while it waited unread for an ingest slot) rejects at once: its
 * stream will never end, and whoever waits on it would keep its slot forever.
 */
function readText(req: IncomingMessage, limit: number): Promise<string> {
  const tooLarge = () => new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${limit} bytes`);
  if (Number(req.headers['content-length']) > limit) return Promise.reject(tooLarge());
  const gone = () => badRequest('The connection closed before the request body arrived');
  if (req.destroyed) return Promise.reject(gone());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Stop buffering; the 413 answer closes the connection, dropping whatever is still in flight.
      req.off('data', onData);
      reject(tooLarge());
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    // A connection that closes before the request arrived whole destroys it with node's 'aborted' error: the client
    // left (or node's request timeout fired), which is no failure of the server's.
    req.once('error', (error) => reject(req.complete ? error : gone()));
  });
}

