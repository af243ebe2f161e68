import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, test } from 'vitest';
import { createCeilingServer } from '../src/ceiling.ts';
import { versusCeiling } from '../src/load.ts';
import * as requests from '../src/requests.ts';

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(server: Server): Promise<{ url: string; token: string }> {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: 'bench' };
}

/** Answers every request as a server would that does not accept the token. */
const refusing = () =>
  createServer((_, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"message":"Unauthorized to perform this action.","status":401}');
  });

const tagRead = requests.tagRead(['urn:li:tag:x']);
const oneShortRound = { connections: 2, rounds: 1, roundS: 1, warmupS: 0 };

test.each(['mds', 'ceiling'] as const)(
  'a round in which %s answers with errors fails, naming it, the count and an answer',
  async (failing) => {
    const [good, bad] = await Promise.all([listen(createCeilingServer()), listen(refusing())]);
    const [mds, ceiling] = failing === 'mds' ? [bad, good] : [good, bad];
    await expect(versusCeiling(mds, ceiling, [tagRead], oneShortRound)).rejects.toThrow(
      new RegExp(
        `^${failing} answered [1-9]\\d* of [1-9]\\d* requests in round 1 with an error .*non-2xx [1-9].*first: 401 \\{"message":"Unauthorized`,
      ),
    );
  },
);

test('rounds answered cleanly give a ratio', async () => {
  const [mds, ceiling] = await Promise.all([listen(createCeilingServer()), listen(createCeilingServer())]);
  const result = await versusCeiling(mds, ceiling, [tagRead], oneShortRound);
  expect(result.rounds).toHaveLength(1);
  expect(result.ratio).toBeGreaterThan(0);
});

test('a round in which a server answered nothing in its time is measured on answers waited for, not reported as 0', async () => {
  // The ceiling answers every request after 1.5 s: within a 1 s round, none is answered (as a busy CI machine might).
  const slow = createServer((_, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"tag":null}}');
    }, 1500);
  });
  const [mds, ceiling] = await Promise.all([listen(createCeilingServer()), listen(slow)]);
  const result = await versusCeiling(mds, ceiling, [tagRead], oneShortRound);
  expect(result.rounds[0]!.ceiling.requests).toBe(oneShortRound.connections);
  expect(result.ceiling.rps).toBeGreaterThan(0);
  expect(result.ceiling.p50Ms).toBeGreaterThanOrEqual(1500);
  expect(result.ratio).toBeGreaterThan(0);
});
