import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the bench's own servers (the ceiling, the bare store) share: JSON in and out, a loopback port announced. */

/** Answers `body` as JSON with `status`. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Calls `then` with the request's whole body as text, from its `end` event (no promise: nothing between). */
export function onBodyText(req: IncomingMessage, then: (text: string) => void): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => then(Buffer.concat(chunks).toString('utf8')));
}

/**
 * Listens on a random loopback port and announces it on stderr as `<what> listening on <url>` (what the harness's
 * `spawnListening` waits for); SIGTERM closes the server, then `closed()`, then exits.
 */
export function listenAnnounced(server: Server, what: string, closed: () => Promise<void> = async () => {}): void {
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(`${what} listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => void closed().then(() => process.exit(0))));
}
