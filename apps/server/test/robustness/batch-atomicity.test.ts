import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { freshDataDir } from '../support/child';
import { spawnLive, systemClient } from '../support/live';
import { readDatabase } from '../support/sqlite-files';
import { join } from 'node:path';

// Issue 30 item 3: a batch of versioned and time-series aspects is one commit. Four clients send batches of 99
// `datasetProperties` and 1 `datasetProfile`; the server is killed with SIGKILL (no shutdown code runs) when the
// round's count of acknowledged batches is reached (a different count each round, so the kill lands at different
// points of the batches in flight), then restarted on the same data directory. Every acknowledged batch must be whole,
// and every batch sent without an answer whole or absent. Nothing here waits on a clock: the kill follows an answer.
const KILLS = Number(process.env.BATCH_KILLS || 3);
const CLIENTS = 4;
const VERSIONED = 99;
const T0 = Date.UTC(2026, 0, 1);

interface Batch {
  client: number;
  n: number;
  acknowledged: boolean;
}

const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
/** The datasets of a batch: 99 with properties; the first also gets the batch's profile point. */
const batchUrns = (client: number, n: number) => Array.from({ length: VERSIONED }, (_, k) => datasetUrn(`atom.c${client}.b${n}.t${k}`));
/** Each client's profiles all go to one dataset, at T0 + the batch's number: one read answers which batches have one. */
const profiledUrn = (client: number) => datasetUrn(`atom.c${client}.profiled`);

function batchProposals(client: number, n: number) {
  const mcp = (urn: string, aspectName: string, value: unknown) => ({
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  });
  return [
    ...batchUrns(client, n).map((urn, k) => mcp(urn, 'datasetProperties', { name: `c${client} b${n} t${k}`, customProperties: {} })),
    mcp(profiledUrn(client), 'datasetProfile', { timestampMillis: T0 + n, rowCount: n, columnCount: 1 }),
  ];
}

const killed = (error: unknown) =>
  /fetch failed|ECONNRESET|ECONNREFUSED|socket|other side closed/i.test(String((error as Error).cause ?? error));

/** How many of the batch's 99 datasets have their properties, read back through GraphQL. */
async function versionedPresent(api: ApiClient, client: number, n: number): Promise<number> {
  const { status, body } = await api.graphql(
    'query($u: [String!]!) { entities(urns: $u) { urn ... on Dataset { properties { name } } } }',
    {
      u: batchUrns(client, n),
    },
  );
  if (status !== 200 || !body.data) throw new Error(`entities answered ${status} ${JSON.stringify(body)}`);
  return (body.data.entities as ({ properties: { name: string } | null } | null)[]).filter((e) => e?.properties?.name).length;
}

/** The batch numbers of `client` whose profile point is stored. */
async function profiledBatches(api: ApiClient, client: number): Promise<Set<number>> {
  const { status, body } = await api.post('/aspects?action=getTimeseriesAspectValues', {
    urn: profiledUrn(client),
    entity: 'dataset',
    aspect: 'datasetProfile',
  });
  if (status !== 200) throw new Error(`getTimeseriesAspectValues answered ${status} ${JSON.stringify(body)}`);
  return new Set(
    (body.value.values as { aspect: { value: string } }[]).map(
      (v) => (JSON.parse(v.aspect.value) as { timestampMillis: number }).timestampMillis - T0,
    ),
  );
}

describe('SIGKILL during batches of versioned and time-series aspects', () => {
  it(`${KILLS} kills: every batch is whole or absent after a restart, every acknowledged one whole`, async () => {
    const DATA_DIR = freshDataDir('atomicity');
    const batches: Batch[] = [];
    const next = Array.from({ length: CLIENTS }, () => 0);
    const targets: number[] = [];
    for (let round = 0; round < KILLS; round++) {
      const server = await spawnLive({ DATA_DIR });
      const api = systemClient(server);
      // Killed after this many batches of the round are acknowledged: 1, 4, 7, 10, 2, 5, ... (more with BATCH_KILLS)
      const target = 1 + ((round * 3) % 11);
      targets.push(target);
      let acknowledged = 0;
      let stopping: Promise<number | null> | undefined;
      const client = async (c: number) => {
        for (;;) {
          const batch: Batch = { client: c, n: next[c]!++, acknowledged: false };
          batches.push(batch);
          try {
            const { status, body } = await api.ingest(batchProposals(c, batch.n));
            if (status !== 200) throw new Error(`batch answered ${status} ${JSON.stringify(body)}`);
          } catch (error) {
            if (stopping && killed(error)) return;
            throw error;
          }
          batch.acknowledged = true;
          if (++acknowledged === target) stopping = server.stop('SIGKILL');
        }
      };
      try {
        await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
      } finally {
        expect(await (stopping ?? server.stop('SIGKILL'))).toBeNull();
      }
    }

    const server = await spawnLive({ DATA_DIR });
    let whole = 0;
    let absent = 0;
    try {
      const api = systemClient(server);
      const profiled = await Promise.all(Array.from({ length: CLIENTS }, (_, c) => profiledBatches(api, c)));
      for (const batch of batches) {
        const versioned = await versionedPresent(api, batch.client, batch.n);
        const profile = profiled[batch.client]!.has(batch.n);
        const state = { versioned, profile };
        if (batch.acknowledged)
          expect(state, `acknowledged batch c${batch.client} b${batch.n}`).toEqual({ versioned: VERSIONED, profile: true });
        else
          expect(
            [
              { versioned: 0, profile: false },
              { versioned: VERSIONED, profile: true },
            ],
            `batch c${batch.client} b${batch.n}`,
          ).toContainEqual(state);
        if (versioned) whole++;
        else absent++;
      }
    } finally {
      await server.stop();
    }
    // The restart relayed what the kills left queued: the outbox is empty.
    expect(readDatabase(join(DATA_DIR, 'entities.db'), (db) => db.prepare('SELECT count(*) AS n FROM timeseries_outbox').get())).toEqual({
      n: 0,
    });
    console.info(
      `batch atomicity: ${KILLS} kills after ${targets.join(', ')} acknowledged batches; ${batches.length} batches checked: ${whole} whole, ${absent} absent`,
    );
    expect(batches.filter((b) => !b.acknowledged).length).toBeGreaterThanOrEqual(KILLS);
  }, 120_000);
});
