import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

// Requests fetch would refuse to send: any method, repeated or oversized headers, and (raw) bytes that are not
// even valid HTTP. Connection failures resolve (status 0, `error` set) so a caller can judge them.

export interface Exchange {
  /** 0 when no answer arrived. */
  status: number;
  headers: IncomingHttpHeaders;
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

/**
 * One exchange through node:http, by default on a connection of its own: reusing one would let a previous answer
 * that closed it (a 400 or 431 from node's parser) fail the next request with a reset that is no fault of the server.
 */
export function send(baseUrl: string, spec: HttpRequestSpec, agent: Agent | false = false, timeoutMs = 15_000): Promise<Exchange> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (exchange: Exchange) => {
      if (!settled) resolve(exchange);
      settled = true;
    };
    let req;
    try {
      req = request(baseUrl + spec.path, { method: spec.method, headers: spec.headers, agent, timeout: timeoutMs });
    } catch (error) {
      // node refused to build the request itself (e.g. an invalid header): nothing reached the server.
      return done({ status: -1, headers: {}, body: '', error: (error as Error).message });
    }
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (error) => done({ status: res.statusCode ?? 0, headers: res.headers, body: '', error: error.message }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error: NodeJS.ErrnoException) => done({ status: 0, headers: {}, body: '', error: error.code ?? error.message }));
    req.end(spec.body);
  });
}

/**
 * Writes `bytes` on a fresh connection (latin1: every char is one byte), then reads the first answer: until its
 * announced length has arrived, the server closes, or `timeoutMs` passes.
 */
export function sendRaw(baseUrl: string, bytes: string, timeoutMs = 5_000): Promise<Exchange> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    let error: string | undefined;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (answerComplete(Buffer.concat(chunks).toString('latin1'))) socket.destroy();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      resolve({ status, headers: {}, body, error: status ? undefined : (error ?? 'closed without an answer') });
    });
    socket.write(Buffer.from(bytes, 'latin1'));
  });
}

/** Whether `text` holds a whole answer with a Content-Length (a keep-alive answer does not close the connection). */
function answerComplete(text: string): boolean {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return false;
  const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
  return length !== undefined && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(length);
}
