import type { ServerResponse } from 'node:http';

/** Answers written during this turn of the event loop, to be ended (sent) together once it is over. */
let unsent: ServerResponse[] = [];

function sendAll(): void {
  const sending = unsent;
  unsent = [];
  for (const res of sending) res.end();
}

/**
 * When an answer leaves. `held`: in its corked socket, sent with every other answer of this turn of the event loop,
 * back to back, once the turn is over. Under load a client is then woken once per burst of answers rather than once
 * per answer, which halved the CPU a cached read costs (README, Performance); alone, an answer leaves microseconds
 * later. `now`: for answers given while node is still parsing the request's bytes, i.e. synchronously in the request
 * listener. Should the rest of those bytes not be HTTP, node destroys the socket as soon as the listener returns,
 * and a held answer would be lost with it.
 */
export type Dispatch = 'held' | 'now';

/** Writes a JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}, dispatch: Dispatch = 'held'): void {
  const payload = JSON.stringify(body);
  const head = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), ...headers };
  if (dispatch === 'now') return void res.writeHead(status, head).end(payload);
  res.socket?.cork();
  res.writeHead(status, head).write(payload);
  if (unsent.push(res) === 1) setImmediate(sendAll);
}

/** The Rest.li-style error body (`{message, status}`) every non-GraphQL path answers with. */
export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, dispatch: Dispatch = 'held'): void {
  sendJson(res, status, { message, status }, headers, dispatch);
}
