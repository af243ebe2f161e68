import type { RequestListener, ServerResponse } from 'node:http';

/** Answers written during this turn of the event loop, to be ended (sent) together once it is over. */
let unsent: ServerResponse[] = [];
/** True while a request listener runs: node is still parsing the bytes that carried the request. */
let parsing = false;

function sendAll(): void {
  const sending = unsent;
  unsent = [];
  for (const res of sending) res.end();
}

/**
 * `listener`, with every answer it gives synchronously sent at once. Node calls a request listener while it is still
 * parsing the bytes that carried the request; should the rest of them not be HTTP, it destroys the socket as soon as
 * the listener returns, and an answer held for the end of the turn (see sendJson) would be lost with it.
 */
export function answeringWhileParsing(listener: RequestListener): RequestListener {
  return (req, res) => {
    parsing = true;
    try {
      listener(req, res);
    } finally {
      parsing = false;
    }
  };
}

/**
 * Writes a JSON answer. Unless node is still parsing its request (see answeringWhileParsing), the answer is held in
 * its corked socket and sent with every other answer of this turn of the event loop, back to back, once the turn is
 * over. Under load a client is then woken once per burst of answers rather than once per answer, which halved the
 * CPU a cached read costs (docs/performance.md); alone, an answer leaves microseconds later.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  const head = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...headers };
  if (parsing) return void res.writeHead(status, head).end(payload);
  res.socket?.cork();
  res.writeHead(status, head).write(payload);
  if (unsent.push(res) === 1) setImmediate(sendAll);
}

/** The Rest.li-style error body (`{message, status}`) every non-GraphQL path answers with. */
export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { message, status }, headers);
}
