import { defineAction, type Actor } from '@mds/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startServer, type RunningServer } from '../src/server';
import { sendRaw } from './support/raw-http';

// The host on its own, with a stand-in authenticator, so its HTTP rules are tested apart from any domain.
const actor: Actor = { urn: 'urn:li:corpuser:tester', privileges: new Set() };
const echo = defineAction({
  resource: 'operations',
  name: 'echo',
  params: z.object({ word: z.string() }),
  handler: ({ word }) => ({ word }),
});

let server: RunningServer;
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, {
    method: 'POST',
    body,
    headers: { authorization: 'Bearer ok', 'content-type': 'application/json', ...headers },
  });

beforeAll(async () => {
  server = await startServer(loadConfig({ PORT: '0', MAX_BODY_BYTES: String(64 * 1024) }), createLogger('silent'), {
    // The host serves what its modules declare (appConfig is @mds/shell's): one query of the test's own.
    modules: [
      {
        name: 'test',
        actions: [echo],
        typeDefs: ['extend type Query { word: String }'],
        resolvers: { Query: { word: () => 'hello' } } as never,
      },
    ],
    authenticate: async (header) => (header === 'Bearer ok' ? actor : null),
  });
});
afterAll(() => server?.close());

describe('POST /api/graphql', () => {
  it('runs a query', async () => {
    const res = await post('/api/graphql', JSON.stringify({ query: '{ word }' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { word: 'hello' } });
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const res = await fetch(server.url + '/api/graphql', { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('refuses a body that is not JSON with 400 naming the problem', async () => {
    const res = await post('/api/graphql', '{"query": ');
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toMatch(/not valid JSON/);
  });

  it.each([['{}'], ['{"query": 42}'], ['[{"query":"{ __typename }"}]'], ['"text"']])(
    'refuses %s without a string query with 400',
    async (body) => {
      const res = await post('/api/graphql', body);
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toMatchObject({
        message: expect.stringMatching(/"query"/),
        extensions: { code: 400, type: 'BAD_REQUEST' },
      });
    },
  );

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'answers content type %s with 415',
    async (type) => {
      const res = await post('/api/graphql', '{"query":"{ __typename }"}', { 'content-type': type });
      expect(res.status).toBe(415);
      expect((await res.json()).errors[0].extensions).toEqual({ code: 415, type: 'UNSUPPORTED_MEDIA_TYPE' });
    },
  );

  it('answers a syntax error with 400 and graphql-js message', async () => {
    const res = await post('/api/graphql', JSON.stringify({ query: '{ appConfig { ' }));
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toMatch(/^Syntax Error/);
  });

  it('answers an unknown field with 400 and graphql-js message', async () => {
    const res = await post('/api/graphql', JSON.stringify({ query: '{ nope }' }));
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toBe('Cannot query field "nope" on type "Query".');
  });

  it('answers 401 without credentials', async () => {
    const res = await post('/api/graphql', JSON.stringify({ query: '{ __typename }' }), { authorization: 'Bearer wrong' });
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].message).toBe('Unauthorized to perform this action.');
  });

  it('echoes x-request-id, or makes one', async () => {
    const given = await post('/api/graphql', JSON.stringify({ query: '{ __typename }' }), { 'x-request-id': 'abc-123' });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await post('/api/graphql', JSON.stringify({ query: '{ __typename }' }));
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Rest.li operations', () => {
  it.each(['/gms/operations', '/api/gms/operations', '/operations'])('dispatches %s?action= and wraps the value', async (path) => {
    const res = await post(`${path}?action=echo`, JSON.stringify({ word: 'hi' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ value: { word: 'hi' } });
  });

  it('answers an unknown action with 400 listing the known ones', async () => {
    const res = await post('/gms/operations?action=nope', '{}');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 400, message: expect.stringMatching(/Unknown action 'nope'.*Known actions: echo/) });
  });

  it('answers a missing action with 400 listing the known ones', async () => {
    const res = await post('/gms/operations', '{}');
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/Missing \?action=.*echo/);
  });

  it('answers a bad parameter with 400 naming it', async () => {
    const res = await post('/gms/operations?action=echo', JSON.stringify({ word: 7 }));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("Parameter 'word' of action 'echo': must be a string");
  });

  it('answers non-POST with 405', async () => {
    const res = await fetch(server.url + '/gms/operations?action=echo');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 401 without credentials', async () => {
    const res = await post('/gms/operations?action=echo', '{}', { authorization: '' });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ status: 401, message: 'Unauthorized to perform this action.' });
  });

  it('refuses a body over the limit with 413 before reading it all', async () => {
    const res = await post('/gms/operations?action=echo', JSON.stringify({ word: 'x'.repeat(100 * 1024) }));
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/exceeds the limit of 65536 bytes/);
  });
});

describe('other paths', () => {
  it('GET /health answers 200 without credentials', async () => {
    const res = await fetch(server.url + '/health');
    expect(res.status).toBe(200);
  });

  it.each(['/', '/graphql', '/api/graphql/', '/graphiql', '/api/graphiql/x'])(
    '%s is a JSON 404 (no landing page, no GraphiQL)',
    async (path) => {
      const res = await fetch(server.url + path, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
    },
  );
});

// Answers of one turn of the event loop leave together once it is over (see sendJson): each must still reach its
// own request, in order, and nothing may be lost.
describe('answers on the wire', () => {
  it('gives each of many concurrent requests its own answer', async () => {
    const words = Array.from({ length: 64 }, (_, i) => `w${i}`);
    const answers = await Promise.all(
      words.map(async (word) => (await post('/gms/operations?action=echo', JSON.stringify({ word }))).json()),
    );
    expect(answers).toEqual(words.map((word) => ({ value: { word } })));
  });

  it('answers requests pipelined on one connection, in order', async () => {
    const request = (word: string) => {
      const body = JSON.stringify({ word });
      return `POST /gms/operations?action=echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ok\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    };
    const { text, error } = await sendRaw(server.url, request('first') + request('second'), 2);
    expect(error).toBeUndefined();
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect([...text.matchAll(/"word":"(\w+)"/g)].map((m) => m[1])).toEqual(['first', 'second']);
  });

  it('still sends an answer given on the spot when the bytes after the request are not HTTP', async () => {
    // A body without a length is not part of the request; node's parser fails on it and destroys the socket.
    const answer = await sendRaw(server.url, 'DELETE / HTTP/1.1\r\nHost: x\r\n\r\n{}');
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({ message: 'No route for /', status: 404 });
  });
});

describe('GET /api/graphiql', () => {
  it('serves the explorer compressed with an ETag, and a 304 on reload', async () => {
    const { request } = await import('node:http');
    const get = (headers: Record<string, string>) =>
      new Promise<{ status: number; headers: Record<string, unknown>; bytes: number }>((resolve, reject) => {
        request(server.url + '/api/graphiql', { headers }, (res) => {
          let bytes = 0;
          res
            .on('data', (c: Buffer) => (bytes += c.length))
            .on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes }));
        })
          .on('error', reject)
          .end();
      });
    const br = await get({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/text\/html/);
    expect(br.bytes).toBeLessThan(4_000_000);
    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.etag).toBe(br.headers.etag);
    const again = await get({ 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.bytes).toBe(0);
  });

  it('targets /api/graphql with the token header template and an example operation', async () => {
    const html = await (await fetch(server.url + '/api/graphiql')).text();
    expect(html).toContain('/api/graphql');
    expect(html).toContain('Bearer <paste a token>');
    expect(html).toContain('appConfig');
  });
});
