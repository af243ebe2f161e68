import { openPostgresDatabase } from '@mds/db';
import { testPostgresUrl } from '@mds/db/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type ChildServer } from './support/child';
import { sleep } from './support/live';
import {
  aspectPath,
  clientOf,
  CREATE_TAG,
  databaseBehindRelay,
  datasetProperties,
  sharedSecrets,
  spawnReplica,
  TAG,
} from './support/replicas';

// PostgreSQL ending every connection of the database (pg_terminate_backend, as a failover or an operator does) while
// two replicas write: each request answers 200 or 503, never a 500; both replicas serve again by themselves; and
// every write they acknowledged is there.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let database: Awaited<ReturnType<typeof databaseBehindRelay>>;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  database = await databaseBehindRelay();
  const secrets = sharedSecrets();
  // A reaches the database through a relay that the outage test cuts; B directly.
  [a, b] = await Promise.all([spawnReplica(database.relayed, secrets), spawnReplica(database.url, secrets)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.dispose();
});

type Outcome = { status: number; read?: string; tag?: string };

/** `count` writes, 10 ms apart, alternating A and B: a third Rest.li ingestion, the rest createTag. */
const writeLoad = (count: number, label: string): Promise<Outcome>[] =>
  Array.from({ length: count }, async (_, i) => {
    await sleep(i * 10);
    const replica = clientOf(i % 2 ? a : b);
    if (i % 3 === 0) {
      const { status } = await replica.post('/aspects?action=ingestProposal', {
        proposal: datasetProperties(`db.${label}${i}`, `write ${i}`),
      });
      return { status, read: aspectPath(`db.${label}${i}`) };
    }
    const { status, body } = await replica.graphql(CREATE_TAG, { i: { id: `${label}-${i}`, name: `${label} ${i}` } });
    if (status === 200) expect(body).toEqual({ data: { createTag: `urn:li:tag:${label}-${i}` } });
    return { status, tag: `urn:li:tag:${label}-${i}` };
  });

/** Every answer a 200 or a 503; both replicas find every acknowledged write; nothing logged as an error. */
async function expectNothingAcknowledgedLost(outcomes: Outcome[]): Promise<void> {
  for (const { status } of outcomes) expect([200, 503]).toContain(status);
  const acknowledged = outcomes.filter((o) => o.status === 200);
  expect(acknowledged.length).toBeGreaterThan(0);
  for (const replica of [a, b]) {
    for (const outcome of acknowledged) {
      if (outcome.read) expect((await clientOf(replica).get(outcome.read)).status).toBe(200);
      else expect((await clientOf(replica).graphql(TAG, { u: outcome.tag })).body.data.tag?.urn).toBe(outcome.tag);
    }
    expect(replica.stdout()).not.toMatch(/"level":50/);
  }
}

it('the database cut off from A three times during writes: 200 or 503, A recovers, nothing acknowledged lost', async () => {
  const writes = writeLoad(120, 'cut');
  let refused = 0;
  for (let round = 0; round < 3; round++) {
    await sleep(150);
    await database.proxy.cut();
    await sleep(100);
    await database.proxy.restore();
  }
  const outcomes = await Promise.all(writes);
  refused = outcomes.filter((o) => o.status === 503).length;
  expect(refused).toBeGreaterThan(0);
  await expectNothingAcknowledgedLost(outcomes);
});

it('every connection terminated during writes: each answers 200 or 503, and every acknowledged write is kept', async () => {
  const admin = openPostgresDatabase({ url: testPostgresUrl(), poolSize: 1 });
  const name = new URL(database.url).pathname.slice(1);
  const terminate = () =>
    admin.all('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()', [name]);
  try {
    const writes = writeLoad(120, 'load');
    let terminated = 0;
    for (let round = 0; round < 8; round++) {
      await sleep(120);
      terminated += (await terminate()).length;
    }
    expect(terminated).toBeGreaterThan(0);
    await expectNothingAcknowledgedLost(await Promise.all(writes));
  } finally {
    await admin.close();
  }
});
