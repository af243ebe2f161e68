import { openPostgresDatabase } from '@mds/db';
import { testDatabases } from '@mds/db/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type ChildServer } from './support/child';
import { SYSTEM_AUTH } from './support/live';
import { clientOf, datasetProperties, datasetUrn, sharedSecrets, spawnReplica } from './support/replicas';

// Two replicas writing the same aspect of the same entities at once: the version history stays what one writer would
// have left (versions 1..n without a gap or a duplicate, every acknowledged value exactly once, systemMetadata.version
// of the latest n+1), and concurrent PATCHes of one aspect each apply to the value the one before left (no lost update).
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const databases = testDatabases();
let url: string;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  url = await databases.create();
  const secrets = sharedSecrets();
  [a, b] = await Promise.all([spawnReplica(url, secrets), spawnReplica(url, secrets)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await databases.dropAll();
});

interface Version {
  value: Record<string, any>;
  systemMetadata: { version: string };
}

/** OpenAPI v3's read of one version of a dataset's aspect (0 the latest, 1..n the history), with its systemMetadata. */
const versionOf = (replica: ChildServer, urn: string, aspect: string, version: number) =>
  clientOf(replica).get(`/openapi/v3/entity/dataset/${encodeURIComponent(urn)}/${aspect}?version=${version}&systemMetadata=true`);

/** A PATCH with a JSON body to `replica` as the system client: its status and body. */
async function patch(replica: ChildServer, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(replica.url + path, {
    method: 'PATCH',
    headers: { authorization: SYSTEM_AUTH, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text() };
}

/** The history (1..n, read until the first 404, alternately from A and B) and the latest value of an aspect. */
async function historyOf(urn: string, aspect: string): Promise<{ history: Version[]; latest: Version }> {
  const history: Version[] = [];
  for (let version = 1; ; version++) {
    const { status, body } = await versionOf(version % 2 ? a : b, urn, aspect, version);
    if (status === 404) break;
    expect(status).toBe(200);
    history.push(body);
  }
  const latest = await versionOf(a, urn, aspect, 0);
  expect(latest.status).toBe(200);
  expect((await versionOf(b, urn, aspect, 0)).body).toEqual(latest.body);
  return { history, latest: latest.body };
}

/** The version numbers of an aspect's rows as stored, in order: 0..n when the history has no gap and no duplicate. */
async function storedVersions(urn: string, aspect: string): Promise<number[]> {
  const db = openPostgresDatabase({ url, poolSize: 1 });
  try {
    const rows = await db.all<{ version: number }>('SELECT version FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? ORDER BY version', [
      urn,
      aspect,
    ]);
    return rows.map((row) => Number(row.version));
  } finally {
    await db.close();
  }
}

/** The history holds versions 1..n, each stamped with its number; the latest is n+1; together they are `written`. */
async function expectGapFreeHistory(
  urn: string,
  aspect: string,
  written: number,
  valueOf: (version: Version) => string,
): Promise<string[]> {
  const { history, latest } = await historyOf(urn, aspect);
  expect(history.length + 1).toBe(written);
  expect(history.map((version) => version.systemMetadata.version)).toEqual(history.map((_, i) => String(i + 1)));
  expect(latest.systemMetadata.version).toBe(String(written));
  expect(await storedVersions(urn, aspect)).toEqual(Array.from({ length: written }, (_, i) => i));
  return [...history, latest].map(valueOf);
}

it('60 writes of one aspect of each of two datasets at once over A and B, two mixed batches among them: versions 1..n gap-free, each value once', async () => {
  const names = ['db.raced0', 'db.raced1'];
  const PER_ENTITY = 60;
  // Interleaved: the two datasets and the two replicas alternate in the order the requests leave.
  const singles = Array.from({ length: PER_ENTITY * 2 }, (_, i) => {
    const name = names[i % 2]!;
    const via = Math.floor(i / 2) % 2 ? 'A' : 'B';
    return { name, via, description: `${name} write ${Math.floor(i / 2)} via ${via}` };
  });
  // Each batch carries 5 values of each dataset, alternating, written in one transaction and in its order.
  const batches = ['A', 'B'].map((via) => ({
    via,
    items: Array.from({ length: 10 }, (_, j) => ({ name: names[j % 2]!, description: `${names[j % 2]} batch via ${via} item ${j}` })),
  }));
  const replica = (via: string) => (via === 'A' ? a : b);
  const sent = [
    ...singles.map((w) =>
      clientOf(replica(w.via)).post('/aspects?action=ingestProposal', { proposal: datasetProperties(w.name, w.description) }),
    ),
    ...batches.map((batch) =>
      clientOf(replica(batch.via)).post('/aspects?action=ingestProposalBatch', {
        proposals: batch.items.map((w) => datasetProperties(w.name, w.description)),
      }),
    ),
  ];
  const answers = await Promise.all(sent);
  // No fault was injected: every write is acknowledged.
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);

  for (const name of names) {
    const acknowledged = [...singles, ...batches.flatMap((batch) => batch.items)].filter((w) => w.name === name).map((w) => w.description);
    expect(new Set(acknowledged).size).toBe(PER_ENTITY + 10);
    const values = await expectGapFreeHistory(
      datasetUrn(name),
      'datasetProperties',
      acknowledged.length,
      (version) => version.value.description,
    );
    // Every acknowledged value exactly once, nothing else.
    expect([...values].sort()).toEqual([...acknowledged].sort());
    // The replicas' writes interleave in the history: they ran at once, not one replica's after the other's.
    const replicas = values.flatMap((value) => /via ([AB])$/.exec(value)?.slice(1) ?? []);
    expect(replicas.filter((via, i) => i > 0 && via !== replicas[i - 1]).length).toBeGreaterThan(2);
    // A batch's values of one dataset follow one another, in the batch's order: nothing came between them.
    for (const batch of batches) {
      const own = batch.items.filter((w) => w.name === name).map((w) => w.description);
      const first = values.indexOf(own[0]!);
      expect(values.slice(first, first + own.length)).toEqual(own);
    }
  }
  for (const replica of [a, b]) expect(replica.stdout()).not.toMatch(/"level":50/);
});

it('40 concurrent PATCH adds of distinct tags to one new dataset, over A and B, OpenAPI and Rest.li: all 40 kept, one version each', async () => {
  const name = 'db.tagged';
  const urn = datasetUrn(name);
  const tags = Array.from({ length: 40 }, (_, i) => `urn:li:tag:concurrent-${i}`);
  const add = (tag: string) => [{ op: 'add', path: `/tags/${tag}`, value: { tag } }];
  const answers = await Promise.all(
    tags.map((tag, i) => {
      const replica = i % 2 ? a : b;
      if (i % 4 < 2) return patch(replica, `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}/globalTags`, { patch: add(tag) });
      const proposal = {
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'PATCH',
        aspectName: 'globalTags',
        aspect: { contentType: 'application/json-patch+json', value: JSON.stringify(add(tag)) },
      };
      return clientOf(replica).post('/aspects?action=ingestProposal', { proposal });
    }),
  );
  expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);

  for (const replica of [a, b]) {
    const { body } = await versionOf(replica, urn, 'globalTags', 0);
    expect(body.value.tags.map((t: { tag: string }) => t.tag).sort()).toEqual([...tags].sort());
    const edges = await clientOf(replica).get(
      `/relationships?urn=${encodeURIComponent(urn)}&direction=OUTGOING&types=List(TaggedWith)&count=100`,
    );
    expect(edges.body.total).toBe(tags.length);
  }
  // Each add made one version, holding the tags of the one before and one more.
  const values = await expectGapFreeHistory(urn, 'globalTags', tags.length, (version) =>
    JSON.stringify(version.value.tags.map((t: { tag: string }) => t.tag)),
  );
  values.forEach((value, i) => expect(JSON.parse(value)).toHaveLength(i + 1));
  for (const replica of [a, b]) expect(replica.stdout()).not.toMatch(/"level":50/);
});
