import type { TestSqlDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { DATAHUB_MODEL, findEntity, timeseriesAspectsOf } from '@mds/core';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createEntities, createEntityGraphql, fileItemProposals, SYSTEM_ACTOR } from '../../src/index';
import { schemaOf } from './schema';

const NOW = 1_700_000_000_000;
const TIMESERIES = new Set(DATAHUB_MODEL.entities.flatMap((entity) => timeseriesAspectsOf(findEntity(entity.name)!)));
const reader: ApiContext = { actor: { urn: 'urn:li:corpuser:reader', privileges: new Set() }, requestId: 'test' };
const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
// DataHub's bootstrap sample (test/fixtures/datahub/bootstrap_mce.json): a Kafka topic feeding HDFS, Hive, logging
// events and the user tables, two jobs, two Looker charts on a dashboard.
const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HDFS = ds('hdfs', 'SampleHdfsDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
const EVENTS = ds('hive', 'logging_events');
const CREATED = ds('hive', 'fct_users_created');
const DELETED = ds('hive', 'fct_users_deleted');
const BACKUP = ds('s3', 'project/root/events/logging_events_bckp');
const TASK_123 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)';
const TASK_456 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_456)';
const BAZ1 = 'urn:li:chart:(looker,baz1)';
const BAZ2 = 'urn:li:chart:(looker,baz2)';
const DASHBOARD = 'urn:li:dashboard:(looker,baz)';
// A chain built for the tests: A ← B ← C ← D, B made at 1000, C at 5000 (and changed at 6000), D drawn by hand at 9000.
const chain = (name: string) => ds('postgres', `chain.${name}`);
const [A, B, C, D] = [chain('a'), chain('b'), chain('c'), chain('d')] as const;

// Documents in the UI's shape (search.graphql's searchAcrossLineage, lineage.graphql's getLineageCounts and
// lineageRelationshipFields), with fragments this schema does not have yet replaced by the fields they read here.
const SEARCH = `query searchAcrossLineage($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    start count total
    searchResults { entity { urn type } matchedFields { name value } insights { text icon } paths { path { urn type } } degree degrees explored ignoredAsHop truncatedChildren }
    facets { field displayName aggregations { value count } }
    lineageSearchPath
  }
}`;
const SCROLL = `query getDownloadScrollAcrossLineageResults($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) { nextScrollId count total searchResults { entity { urn type } degree } }
}`;
const LINEAGE = `query getEntityLineage($urn: String!, $startTimeMillis: Long, $endTimeMillis: Long, $includeGhostEntities: Boolean = false) {
  entity(urn: $urn) {
    urn type
    ... on EntityWithRelationships {
      upstream: lineage(input: { direction: UPSTREAM, start: 0, count: 100, startTimeMillis: $startTimeMillis, endTimeMillis: $endTimeMillis, includeGhostEntities: $includeGhostEntities }) {
        start count total filtered
        relationships { type degree createdOn updatedOn isManual createdActor { urn type } updatedActor { urn } entity { urn type } paths { path { urn } } }
      }
      downstream: lineage(input: { direction: DOWNSTREAM, start: 0, count: 100, startTimeMillis: $startTimeMillis, endTimeMillis: $endTimeMillis }) {
        total filtered relationships { type entity { urn } }
      }
    }
  }
}`;

const upstreamOf = (...from: { urn: string; created?: number; updated?: number; manual?: boolean }[]) => ({
  upstreams: from.map((u) => ({
    dataset: u.urn,
    type: 'TRANSFORMED',
    auditStamp: { time: u.updated ?? 0, actor: 'urn:li:corpuser:jdoe' },
    ...(u.created !== undefined ? { created: { time: u.created, actor: 'urn:li:corpuser:maker' } } : {}),
    ...(u.manual ? { properties: { source: 'UI' } } : {}),
  })),
});
const proposal = (urn: string, aspectName: string, value: unknown) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  },
  place: { action: 'test', path: 'seed' },
});

/** searchAcrossLineage, scrollAcrossLineage and the `lineage` field over DataHub's bootstrap sample and a built chain. */
export function describeLineageGraphql(name: string, databases: Pick<TestSqlDatabases, 'open'>) {
  async function setup() {
    const entities = await createEntities({ db: await databases.open(), now: () => NOW });
    const file = JSON.parse(readFileSync(new URL('../fixtures/datahub/bootstrap_mce.json', import.meta.url), 'utf8')) as unknown[];
    // Its versioned aspects (time-series ones need a time-series store these tests do not open).
    const versioned = file
      .flatMap((item, i) => fileItemProposals(item, `bootstrap_mce.json[${i}]`))
      .filter(({ proposal }) => !TIMESERIES.has((proposal as { aspectName: string }).aspectName));
    await entities.service.ingest(SYSTEM_ACTOR, versioned, { batch: true });
    await entities.service.ingest(
      SYSTEM_ACTOR,
      [
        proposal(A, 'status', { removed: false }),
        proposal(B, 'upstreamLineage', upstreamOf({ urn: A, created: 1000, updated: 1000 })),
        proposal(C, 'upstreamLineage', upstreamOf({ urn: B, created: 5000, updated: 6000 })),
        proposal(D, 'upstreamLineage', upstreamOf({ urn: C, created: 9000, manual: true })),
      ],
      { batch: true },
    );
    const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search, now: () => NOW }));
    const run = async (source: string, variableValues: Record<string, unknown>) =>
      (await graphql({ schema, source, variableValues, contextValue: reader })) as ExecutionResult<Record<string, any>>;
    const ok = async (source: string, variableValues: Record<string, unknown>) => {
      const result = await run(source, variableValues);
      expect(result.errors).toBeUndefined();
      return result.data!;
    };
    return { run, ok, entities };
  }
  const hops = (data: Record<string, any>) => data.searchAcrossLineage.searchResults.map((r: any) => [r.entity.urn, r.degree]);

  describe(`lineage over GraphQL: ${name}`, () => {
    it("searchAcrossLineage walks DataHub's bootstrap sample downstream, nearest first, with degree facets and paths", async () => {
      const { ok } = await setup();
      const data = await ok(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', query: '*', start: 0, count: 100 } });
      expect(hops(data)).toEqual([
        [BAZ1, 1],
        [HDFS, 1],
        [BAZ2, 2],
        [DASHBOARD, 2],
        [HIVE, 2],
        [EVENTS, 3],
        [TASK_123, 4],
        [TASK_456, 4],
        [CREATED, 4],
        [DELETED, 4],
        [BACKUP, 4],
      ]);
      const result = data.searchAcrossLineage;
      expect(result.total).toBe(11);
      expect(result.facets[0]).toEqual({
        field: 'degree',
        displayName: 'Degree of Dependencies',
        aggregations: [
          { value: '1', count: 2 },
          { value: '2', count: 3 },
          { value: '3+', count: 6 },
        ],
      });
      const typeFacet = result.facets.find((f: any) => f.field === '_entityType');
      expect(typeFacet.aggregations).toEqual([
        { value: 'DATASET', count: 6 },
        { value: 'CHART', count: 2 },
        { value: 'DATA_JOB', count: 2 },
        { value: 'DASHBOARD', count: 1 },
      ]);
      const events = result.searchResults.find((r: any) => r.entity.urn === EVENTS);
      expect(events).toMatchObject({
        degree: 3,
        degrees: [3],
        explored: true,
        ignoredAsHop: false,
        truncatedChildren: false,
        insights: [],
      });
      expect(events.paths.map((p: any) => p.path.map((e: any) => e.urn))).toEqual([[KAFKA, HDFS, HIVE, EVENTS]]);
      // The dashboard is two hops away through either chart: both shortest paths.
      const dashboard = result.searchResults.find((r: any) => r.entity.urn === DASHBOARD);
      expect(dashboard.paths.map((p: any) => p.path.map((e: any) => e.urn))).toEqual([[KAFKA, BAZ1, DASHBOARD]]);
    });

    it('upstream: a data job’s output leads back through the job and its inputs', async () => {
      const { ok } = await setup();
      const data = await ok(SEARCH, { input: { urn: CREATED, direction: 'UPSTREAM', count: 100 } });
      expect(hops(data)).toEqual([
        [TASK_123, 1],
        [EVENTS, 1],
        [HIVE, 2],
        [HDFS, 3],
        [KAFKA, 4],
      ]);
    });

    it('the degree filter limits the hops, types and words narrow the results, and the counts follow', async () => {
      const { ok, run } = await setup();
      const degree = (...values: string[]) => [{ and: [{ field: 'degree', values }] }];
      const one = await ok(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', orFilters: degree('1'), count: 2000 } });
      expect(hops(one)).toEqual([
        [BAZ1, 1],
        [HDFS, 1],
      ]);
      const far = await ok(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', orFilters: degree('3+') } });
      expect(far.searchAcrossLineage.total).toBe(6);
      // The UI's getSearchAcrossLineageCounts: the deprecated `filters`, count 2000.
      const counts = await ok(SEARCH, {
        input: {
          urn: KAFKA,
          direction: 'DOWNSTREAM',
          query: '*',
          start: 0,
          count: 2000,
          filters: [{ field: 'degree', value: '1', values: ['1'] }],
        },
      });
      expect(counts.searchAcrossLineage.total).toBe(2);
      const jobs = await ok(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', types: ['DATA_JOB'] } });
      expect(hops(jobs)).toEqual([
        [TASK_123, 4],
        [TASK_456, 4],
      ]);
      const words = await ok(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', query: 'fct_users' } });
      // The jobs' names and the tables' names have the words.
      expect(hops(words).map(([urn]: [string]) => urn)).toEqual([TASK_123, TASK_456, CREATED, DELETED]);
      expect(words.searchAcrossLineage.searchResults[0].matchedFields.length).toBeGreaterThan(0);
      const hive = await ok(SEARCH, {
        input: { urn: KAFKA, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] },
      });
      expect(hops(hive).map(([urn]: [string]) => urn)).toEqual([HIVE, EVENTS, CREATED, DELETED]);
      const bad = await run(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', orFilters: degree('4') } });
      expect(bad.errors?.[0]?.message).toBe('4 is not a valid filter value for degree filters');
    });

    it('time bounds keep edges made or changed in the window, edges with no times and edges drawn by hand', async () => {
      const { ok } = await setup();
      const within = (startTimeMillis: number, endTimeMillis: number) =>
        ok(SEARCH, { input: { urn: A, direction: 'DOWNSTREAM', lineageFlags: { startTimeMillis, endTimeMillis } } });
      expect(hops(await within(0, 2000))).toEqual([[B, 1]]);
      expect(hops(await within(0, 6000))).toEqual([
        [B, 1],
        [C, 2],
        [D, 3],
      ]);
      // The input's own startTimeMillis, the window ending now: every edge made before now.
      const since = await ok(SEARCH, { input: { urn: A, direction: 'DOWNSTREAM', startTimeMillis: 2000 } });
      expect(hops(since)).toEqual([]);
    });

    it('soft-deleted entities are left out unless searchFlags.includeSoftDeleted', async () => {
      const { ok, entities } = await setup();
      await entities.service.ingest(SYSTEM_ACTOR, [proposal(HDFS, 'status', { removed: true })], { batch: true });
      const left = await ok(SEARCH, {
        input: { urn: KAFKA, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: 'degree', values: ['1', '2'] }] }] },
      });
      expect(hops(left).map(([urn]: [string]) => urn)).toEqual([BAZ1, BAZ2, DASHBOARD, HIVE]);
      const all = await ok(SEARCH, {
        input: {
          urn: KAFKA,
          direction: 'DOWNSTREAM',
          orFilters: [{ and: [{ field: 'degree', values: ['1'] }] }],
          searchFlags: { includeSoftDeleted: true },
        },
      });
      expect(hops(all)).toEqual([
        [BAZ1, 1],
        [HDFS, 1],
      ]);
    });

    it('scrollAcrossLineage pages with an opaque scroll id; a bad one is refused', async () => {
      const { ok, run } = await setup();
      const seen: string[] = [];
      let scrollId: string | null = null;
      let pages = 0;
      do {
        const data = await ok(SCROLL, { input: { urn: KAFKA, direction: 'DOWNSTREAM', count: 4, ...(scrollId ? { scrollId } : {}) } });
        seen.push(...data.scrollAcrossLineage.searchResults.map((r: any) => r.entity.urn));
        expect(data.scrollAcrossLineage.total).toBe(11);
        scrollId = data.scrollAcrossLineage.nextScrollId;
        pages++;
      } while (scrollId);
      expect(pages).toBe(3);
      expect(seen).toHaveLength(11);
      expect(new Set(seen).size).toBe(11);
      const bad = await run(SCROLL, { input: { urn: KAFKA, direction: 'DOWNSTREAM', scrollId: 'not-a-scroll' } });
      expect(bad.errors?.[0]?.message).toBe('Invalid scrollId: not-a-scroll');
    });

    it('refuses a missing or malformed urn and a page too large, naming them', async () => {
      const { run } = await setup();
      expect((await run(SEARCH, { input: { direction: 'DOWNSTREAM' } })).errors?.[0]?.message).toBe("'urn' is required");
      expect((await run(SEARCH, { input: { urn: 'urn:li:dataset:nope', direction: 'DOWNSTREAM' } })).errors?.[0]?.message).toMatch(
        /^Invalid urn/,
      );
      expect((await run(SEARCH, { input: { urn: KAFKA, direction: 'DOWNSTREAM', count: 10_001 } })).errors?.[0]?.message).toBe(
        "'count' must be an integer from 0 to 10000",
      );
    });

    it('the lineage field: one hop with the edge’s type and stamps, time bounds, entities never stored counted as filtered', async () => {
      const { ok } = await setup();
      const data = await ok(LINEAGE, { urn: C });
      expect(data.entity.upstream).toEqual({
        start: 0,
        count: 1,
        total: 1,
        filtered: 0,
        relationships: [
          {
            type: 'DownstreamOf',
            degree: 1,
            createdOn: 5000,
            updatedOn: 6000,
            isManual: false,
            createdActor: { urn: 'urn:li:corpuser:maker', type: 'CORP_USER' },
            updatedActor: { urn: 'urn:li:corpuser:jdoe' },
            entity: { urn: B, type: 'DATASET' },
            paths: [],
          },
        ],
      });
      expect(data.entity.downstream).toEqual({ total: 1, filtered: 0, relationships: [{ type: 'DownstreamOf', entity: { urn: D } }] });
      // The counts alone, as the UI's search results ask them (relationships not asked, in a named fragment or not).
      const counts = await ok(
        `query counts($urn: String!) { entity(urn: $urn) { ... on EntityWithRelationships {
          upstream: lineage(input: { direction: UPSTREAM, start: 0, count: 100 }) { start count total filtered }
          downstream: lineage(input: { direction: DOWNSTREAM, start: 0, count: 100 }) { ...page } } } }
        fragment page on EntityLineageResult { count total filtered }`,
        { urn: C },
      );
      expect(counts.entity).toEqual({
        upstream: { start: 0, count: 1, total: 1, filtered: 0 },
        downstream: { count: 1, total: 1, filtered: 0 },
      });
      // Outside the window the edge to B is gone; D's hand-drawn edge stays.
      const windowed = await ok(LINEAGE, { urn: C, startTimeMillis: 7000, endTimeMillis: 8000 });
      expect(windowed.entity.upstream.total).toBe(0);
      expect(windowed.entity.downstream.total).toBe(1);
      // A job's edges both ways; a dataset whose upstream was never stored.
      const job = await ok(LINEAGE, { urn: TASK_456 });
      expect(job.entity.upstream.relationships.map((r: any) => [r.type, r.entity.urn])).toEqual([
        ['Consumes', EVENTS],
        ['DownstreamOf', TASK_123],
      ]);
      expect(job.entity.downstream.relationships.map((r: any) => [r.type, r.entity.urn])).toEqual([['Produces', DELETED]]);
      const ghost = ds('hive', 'never_stored');
      const withGhost = await setup();
      await withGhost.entities.service.ingest(SYSTEM_ACTOR, [proposal(A, 'upstreamLineage', upstreamOf({ urn: ghost }))], { batch: true });
      const hidden = await withGhost.ok(LINEAGE, { urn: A });
      expect(hidden.entity.upstream).toMatchObject({ total: 0, filtered: 1, relationships: [] });
      const shown = await withGhost.ok(LINEAGE, { urn: A, includeGhostEntities: true });
      expect(shown.entity.upstream.relationships.map((r: any) => r.entity.urn)).toEqual([ghost]);
    });

    it('relationships: includeSoftDelete defaults to true; false leaves soft-deleted entities out', async () => {
      const { ok, entities } = await setup();
      await entities.service.ingest(SYSTEM_ACTOR, [proposal(B, 'status', { removed: true })], { batch: true });
      const query = `query ($urn: String!, $soft: Boolean) { dataset(urn: $urn) {
        all: relationships(input: { types: ["DownstreamOf"], direction: INCOMING }) { total relationships { type direction entity { urn } created { time } } }
        kept: relationships(input: { types: ["DownstreamOf"], direction: INCOMING, includeSoftDelete: $soft }) { total }
      } }`;
      const data = await ok(query, { urn: A, soft: false });
      expect(data.dataset.all).toEqual({
        total: 1,
        relationships: [{ type: 'DownstreamOf', direction: 'INCOMING', entity: { urn: B }, created: null }],
      });
      expect(data.dataset.kept.total).toBe(0);
      // Every entity type with edges answers them: jdoe owns 14 entities of the sample and administers 2 groups
      // (corpGroupInfo.admins are OwnedBy edges in DataHub's model), ordered by urn.
      const owned = await ok(
        `query { corpUser(urn: "urn:li:corpuser:jdoe") { relationships(input: { types: ["OwnedBy"], direction: INCOMING, count: 2 }) { total count relationships { entity { urn } } } } }`,
        {},
      );
      expect(owned.corpUser.relationships).toMatchObject({ total: 16, count: 2 });
      expect(owned.corpUser.relationships.relationships.map((r: any) => r.entity.urn)).toEqual([
        'urn:li:corpGroup:bfoo',
        'urn:li:corpGroup:jdoe',
      ]);
    });

    it('fineGrainedLineages: the bootstrap sample’s column-level lineage as field references', async () => {
      const { ok } = await setup();
      const data = await ok(
        `query ($urn: String!) { dataset(urn: $urn) { fineGrainedLineages { upstreams { urn path } downstreams { urn path } query transformOperation } } }`,
        { urn: CREATED },
      );
      expect(data.dataset.fineGrainedLineages).toEqual([
        { upstreams: [{ urn: CREATED, path: 'user_name' }], downstreams: null, query: null, transformOperation: null },
      ]);
      const none = await ok(`query ($urn: String!) { dataset(urn: $urn) { fineGrainedLineages { query } } }`, { urn: KAFKA });
      expect(none.dataset.fineGrainedLineages).toBeNull();
    });
  });
}
