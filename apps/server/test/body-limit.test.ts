import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_MAX_BYTES } from '../src/http/body';
import { startMds, type Mds } from './support/mds';

// MAX_BODY_BYTES is 1 MiB by default; these bodies are five times that, as a client's oversized batch would be.
const LIMIT = 1024 * 1024;
const FIVE_MB = 5 * LIMIT;
const EXPECTED = {
  errors: [{ message: `Request body exceeds the limit of ${LIMIT} bytes`, extensions: { code: 413, type: 'PAYLOAD_TOO_LARGE' } }],
};

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(async () => {
  await mds?.close();
});

const bigQuery = (bytes: number) => JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(bytes) } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const CHUNK = 'x'.repeat(64 * 1024);
/**
 * A 5 MB query as a client on a slower link sends it: 64 KiB every few milliseconds, so that it is still uploading
 * when the server has seen enough to refuse it (on loopback a fast upload lands in the kernel's buffers first).
 */
async function* pacedQuery() {
  yield '{"query":"{ __typename }","variables":{"pad":"';
  for (let sent = 0; sent < FIVE_MB; sent += CHUNK.length) {
    yield CHUNK;
    await sleep(3);
  }
  yield '"}}';
}
const authorization = () => `Bearer ${mds.rootToken}`;

/** Another client's request, answered while (or after) the big upload is refused. */
async function healthyMeanwhile() {
  const res = await mds.graphql('{ me { corpUser { urn } } }');
  expect(res.status).toBe(200);
}

describe('a body over MAX_BODY_BYTES gets a 413 every client reads', () => {
  it("Node's fetch sees the 413 and its JSON body, not EPIPE", async () => {
    const chunks = pacedQuery();
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { value, done } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      },
    });
    const res = await fetch(`${mds.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: authorization() },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual(EXPECTED);
    await healthyMeanwhile();
  });

  it('http.request streaming the body in paced chunks (no Content-Length) sees the 413 once its upload is done', async () => {
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        `${mds.url}/api/graphql`,
        { method: 'POST', headers: { 'content-type': 'application/json', authorization: authorization() } },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      void (async () => {
        for await (const chunk of pacedQuery()) req.write(chunk);
        req.end();
      })();
    });
    // Other clients are served while the upload is being read and thrown away.
    await healthyMeanwhile();
    const { status, body } = await answer;
    expect(status).toBe(413);
    expect(JSON.parse(body)).toEqual(EXPECTED);
    await healthyMeanwhile();
  });

  it('a raw socket finishes uploading an announced 5 MB body, unreset, then reads the 413 and JSON, then the server closes', async () => {
    const { port } = new URL(mds.url);
    const { text, uploaded, errors } = await new Promise<{ text: string; uploaded: boolean[]; errors: string[] }>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let text = '';
      let uploadDone = false;
      const uploaded: boolean[] = []; // for each chunk of the answer: had the whole body been written by then?
      const errors: string[] = [];
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        uploaded.push(uploadDone);
        text += chunk;
      });
      socket.on('error', (error) => errors.push(error.message)).on('close', () => resolve({ text, uploaded, errors }));
      const length = Buffer.byteLength(bigQuery(FIVE_MB));
      socket.write(
        `POST /api/graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: ${authorization()}\r\nContent-Length: ${length}\r\n\r\n`,
      );
      void (async () => {
        for await (const chunk of pacedQuery()) if (socket.writable) socket.write(chunk);
        uploadDone = true;
      })();
    });
    expect(errors).toEqual([]); // no EPIPE, no reset
    expect(uploaded.every(Boolean)).toBe(true); // the answer came once the upload was over, not in the middle of it
    const [head, body] = text.split('\r\n\r\n', 2) as [string, string];
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    expect(head).toMatch(/^connection: close$/im);
    expect(JSON.parse(body)).toEqual(EXPECTED);
  });

  it(`a body announced beyond ${LINGER_MAX_BYTES / 2 ** 20} MiB is refused at once and cut, without being read`, async () => {
    const { port } = new URL(mds.url);
    const started = performance.now();
    const text = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let received = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
      socket.on('close', () => resolve(received)).on('error', () => undefined);
      socket.write(
        `POST /api/graphql HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAuthorization: ${authorization()}\r\nContent-Length: ${LINGER_MAX_BYTES + 1}\r\n\r\n{"query":`,
      );
    });
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(performance.now() - started).toBeLessThan(5000); // not waiting for the body that never comes
    await healthyMeanwhile();
  });
});
