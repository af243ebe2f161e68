import { aspectSpec, findEntityOfUrn, keyAspectValue, parseUrn, relationshipsOf } from '@mds/core';
import { fileItemProposals, pegasusSnapshot } from '@mds/entities';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDatabases } from './support/databases';
import { startMds, type Mds } from './support/mds';

// DataHub's own ingestion files (sources in packages/entities/test/fixtures/datahub/SOURCES.md), each sent as its
// CLI would send it: MCEs through /entities?action=batchIngest, MCPs through /aspects?action=ingestProposalBatch.
// Every item must be accepted, and every versioned aspect read back equal through /aspects, /entitiesV2 and OpenAPI;
// every edge its aspects (and keys) declare answers /relationships, from both ends.
const FIXTURES = new URL('../../../packages/entities/test/fixtures/datahub/', import.meta.url);
const files = readdirSync(FIXTURES).filter((name) => name.endsWith('.json'));
const enc = encodeURIComponent;

interface Expected {
  urn: string;
  aspect: string;
  value: unknown;
}

/** The batches a file becomes, and the latest value each (urn, versioned aspect) must have afterwards. */
function load(name: string) {
  const items: unknown[] = JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));
  const snapshots: { value: unknown }[] = [];
  const systemMetadata: unknown[] = [];
  const proposals: unknown[] = [];
  const expected = new Map<string, Expected>();
  const expect_ = (urn: string, aspect: string, value: unknown) => {
    if (aspectSpec(aspect)?.kind === 'versioned') expected.set(`${urn} ${aspect}`, { urn, aspect, value });
  };
  items.forEach((item, i) => {
    const mce = (item as { proposedSnapshot?: unknown; systemMetadata?: unknown }).proposedSnapshot;
    if (mce !== undefined) {
      snapshots.push({ value: pegasusSnapshot(mce) });
      systemMetadata.push((item as { systemMetadata?: unknown }).systemMetadata ?? {});
    } else {
      proposals.push(fileItemProposals(item, `${name}[${i}]`)[0]!.proposal);
    }
    for (const { proposal } of fileItemProposals(item, `${name}[${i}]`)) {
      const p = proposal as { entityUrn: string; aspectName: string; changeType: string; aspect: { value: string } };
      // A PATCH's result depends on what was stored before; its aspect is checked to exist, not for a value.
      expect_(p.entityUrn, p.aspectName, p.changeType === 'PATCH' ? undefined : JSON.parse(p.aspect.value));
    }
  });
  return { items, snapshots, systemMetadata, proposals, expected: [...expected.values()] };
}

/** The edges the stored aspects of a file declare (@Relationship of DataHub's model), by source urn. */
function edgesOf(expected: readonly Expected[]): Map<string, { type: string; destination: string }[]> {
  const edges = new Map<string, { type: string; destination: string }[]>();
  const add = (urn: string, aspect: string, value: unknown) => {
    for (const { type, destination } of relationshipsOf(aspect, value)) edges.set(urn, [...(edges.get(urn) ?? []), { type, destination }]);
  };
  for (const { urn, aspect, value } of expected) if (value !== undefined) add(urn, aspect, value);
  for (const urn of new Set(expected.map((e) => e.urn))) {
    const entity = findEntityOfUrn(urn)!;
    add(urn, entity.keyAspect, keyAspectValue(entity, parseUrn(urn)));
  }
  return edges;
}
/** Every relationship name the golden files' edges use. */
const relationshipNames = new Set<string>();

// On each dialect: batches of DataHub's files are where the aspect store's batched write path does most.
describe.each(serverDatabases())("DataHub's golden files on %s", (_, database) => {
  let mds: Mds;
  beforeAll(async () => {
    mds = await startMds(await database());
  });
  afterAll(() => mds?.close());

  it('are at least 5 files and 200 items', () => {
    const items = files.reduce((sum, name) => sum + load(name).items.length, 0);
    expect(files.length).toBeGreaterThanOrEqual(5);
    expect(items).toBeGreaterThanOrEqual(200);
  });

  it.each(files)(
    '%s: every item accepted, every versioned aspect read back equal (/aspects, /entitiesV2, OpenAPI), every edge answered',
    async (name) => {
      const { snapshots, systemMetadata, proposals, expected } = load(name);
      if (snapshots.length) {
        const res = await mds.post('/entities?action=batchIngest', { entities: snapshots, systemMetadata });
        expect([res.status, res.body?.message]).toEqual([200, undefined]);
      }
      if (proposals.length) {
        const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals, async: 'false' });
        expect([res.status, res.body]).toEqual([200, { value: 'success' }]);
      }
      // Time-series items went to their indices (the index name is lower-case `<entity>_<aspect>aspect_v1`).
      const timeseries = proposals
        .map((p) => p as { entityType: string; aspectName: string })
        .filter((p) => aspectSpec(p.aspectName)?.kind === 'timeseries')
        .map((p) => `${p.entityType}_${p.aspectName}aspect_v1`.toLowerCase());
      const indices = (await mds.post('/gms/operations?action=getIndexSizes', {})).body.value.indexSizes.map(
        (s: { indexName: string }) => s.indexName,
      );
      for (const index of new Set(timeseries)) expect(indices).toContain(index);
      expect(expected.length + timeseries.length).toBeGreaterThan(0);
      // What a PATCH made is read back; its edges are checked below like those of any value.
      const stored: Expected[] = [];
      for (const { urn, aspect, value } of expected) {
        const read = await mds.clientFor(mds.rootToken).get(`/aspects/${enc(urn)}?aspect=${aspect}&version=0`);
        expect(read.status, `${urn} ${aspect}`).toBe(200);
        const found = read.body.aspect[aspectSpec(aspect)!.pdlClass];
        if (value !== undefined) expect(found, `${urn} ${aspect}`).toEqual(value);
        stored.push({ urn, aspect, value: found });
      }
      const urns = [...new Set(expected.map((e) => e.urn))];
      const { status, body } = await mds.clientFor(mds.rootToken).get(`/entitiesV2?ids=List(${urns.map(enc).join(',')})`);
      expect(status).toBe(200);
      for (const { urn, aspect, value } of expected) {
        if (value !== undefined) expect(body.results[urn].aspects[aspect].value, `${urn} ${aspect}`).toEqual(value);
      }
      for (const urn of urns) {
        const openapi = await mds.clientFor(mds.rootToken).get(`/openapi/v3/entity/${parseUrn(urn).entityType}/${enc(urn)}`);
        expect(openapi.status, urn).toBe(200);
        for (const { aspect, value } of expected.filter((e) => e.urn === urn)) {
          if (value !== undefined) expect(openapi.body[aspect]?.value, `OpenAPI ${urn} ${aspect}`).toEqual(value);
        }
      }
      for (const [urn, edges] of edgesOf(stored)) {
        const types = [...new Set(edges.map((e) => e.type))];
        const out = await mds
          .clientFor(mds.rootToken)
          .get(`/relationships?urn=${enc(urn)}&direction=OUTGOING&types=List(${types.join(',')})&count=10000`);
        expect(out.status, urn).toBe(200);
        const answered = out.body.relationships.map((r: { type: string; entity: string }) => `${r.type} ${r.entity}`);
        for (const { type, destination } of edges) {
          expect(answered, `${urn} ${type}`).toContain(`${type} ${destination}`);
          relationshipNames.add(type);
        }
        // And from the other end: the first edge of each type is found among its destination's incoming edges.
        for (const type of types) {
          const { destination } = edges.find((e) => e.type === type)!;
          const incoming = await mds
            .clientFor(mds.rootToken)
            .get(`/relationships?urn=${enc(destination)}&direction=INCOMING&types=List(${type})&count=10000`);
          expect(incoming.body.relationships, `${destination} <- ${type}`).toContainEqual({ type, entity: urn });
        }
      }
    },
  );

  it('answered /relationships for the relationship names that occur in them', () => {
    // Checked after the files (vitest runs a file's tests in order): at least these names occur in the fixtures.
    for (const name of ['DownstreamOf', 'OwnedBy', 'TaggedWith', 'TermedWith', 'IsPartOf', 'Consumes', 'Produces', 'MemberOf'])
      expect(relationshipNames, name).toContain(name);
  });
});
