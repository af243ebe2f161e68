import type { TestSqlDatabases } from '@mds/db/testing';
import { describe, expect, it } from 'vitest';
import { lineageEdges, type LineageDirection } from '../../src/model/lineage';
import type { WalkQuery } from '../../src/store/port';
import { createSqlAspectStore } from '../../src/store/sql-store';
import { anything, keyed, type TestWrite } from './writes';

const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const A = ds('a');
const B = ds('b');
const C = ds('c');
const D = ds('d');
const E = ds('e');
const F = ds('f');
const G = ds('g');
const H = ds('h');
const X = ds('x');
const Y = ds('y');
const Z = ds('z');
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),load)';
const OUT = ds('out');
const GHOST = ds('never_stored');
const audit = { actor: 'urn:li:corpuser:jdoe', time: 1 };

type Upstream = { urn: string; created?: number; updated?: number; manual?: boolean };
const upstreams = (urn: string, ...from: (string | Upstream)[]): TestWrite => ({
  urn,
  aspect: 'upstreamLineage',
  changeType: 'UPSERT',
  value: {
    upstreams: from
      .map((u) => (typeof u === 'string' ? { urn: u } : u))
      .map((u) => ({
        dataset: u.urn,
        type: 'TRANSFORMED',
        auditStamp: { time: u.updated ?? 0, actor: 'urn:li:corpuser:jdoe' },
        ...(u.created !== undefined ? { created: { time: u.created, actor: 'urn:li:corpuser:maker' } } : {}),
        ...(u.manual ? { properties: { source: 'UI' } } : {}),
      })),
  },
});
const status = (urn: string, removed = false): TestWrite => ({ urn, aspect: 'status', changeType: 'UPSERT', value: { removed } });

/**
 * The graph: a chain A ← B ← C ← D (each derived from the one before), a fan-out A ← E, A ← F (E made at 1000, F at
 * 5000 and changed at 6000), G derived from both B and E (two shortest paths), a data job reading D and writing OUT,
 * a cycle X ← Z ← Y ← X, a hub H with 12 downstream datasets, an upstream of A never stored, and a user's group
 * membership (`MemberOf`, not lineage from a user).
 */
const GRAPH: TestWrite[] = [
  status(A),
  upstreams(A, GHOST),
  upstreams(B, A),
  upstreams(C, B),
  upstreams(D, C),
  upstreams(E, { urn: A, created: 1000, updated: 1000 }),
  upstreams(F, { urn: A, created: 5000, updated: 6000 }),
  upstreams(G, B, E),
  { urn: JOB, aspect: 'dataJobInputOutput', changeType: 'UPSERT', value: { inputDatasets: [D], outputDatasets: [OUT] } },
  status(OUT),
  upstreams(X, Z),
  upstreams(Y, X),
  upstreams(Z, Y),
  status(H),
  ...Array.from({ length: 12 }, (_, i) => upstreams(ds(`h${String(i).padStart(2, '0')}`), { urn: H, created: 9000, manual: true })),
  { urn: 'urn:li:corpuser:jdoe', aspect: 'groupMembership', changeType: 'UPSERT', value: { groups: ['urn:li:corpGroup:eng'] } },
];

/** The bounded lineage walk of the aspect store (`walk`, `adjacent`), on every dialect. */
export function describeLineageContract(name: string, databases: Pick<TestSqlDatabases, 'open'>) {
  async function graphStore() {
    const store = createSqlAspectStore(await databases.open());
    await store.migrate();
    await store.write(GRAPH.map(keyed), audit, anything);
    return store;
  }
  const walkOf =
    (store: Awaited<ReturnType<typeof graphStore>>) =>
    (urn: string, direction: LineageDirection, query: Partial<Omit<WalkQuery, 'outgoing' | 'incoming'>> = {}) =>
      store.walk(urn, { ...lineageEdges(direction), maxHops: 1000, maxRows: 40_000, ...query });
  const degrees = (found: { entities: { urn: string; degree: number }[] }) => found.entities.map((e) => [e.urn, e.degree]);

  describe(`lineage walk: ${name}`, () => {
    it('follows a chain, a fan-out and a data job downstream, each entity at its fewest hops, nearest first', async () => {
      const walk = walkOf(await graphStore());
      expect(degrees(await walk(A, 'DOWNSTREAM'))).toEqual([
        [B, 1],
        [E, 1],
        [F, 1],
        [C, 2],
        [G, 2],
        [D, 3],
        [JOB, 4],
        [OUT, 5],
      ]);
      expect(degrees(await walk(OUT, 'UPSTREAM'))).toEqual([
        [JOB, 1],
        [D, 2],
        [C, 3],
        [B, 4],
        [A, 5],
      ]);
    });

    it('stops at maxHops, and answers every hop count an entity is seen at', async () => {
      const walk = walkOf(await graphStore());
      expect(degrees(await walk(A, 'DOWNSTREAM', { maxHops: 2 }))).toEqual([
        [B, 1],
        [E, 1],
        [F, 1],
        [C, 2],
        [G, 2],
      ]);
      const cycle = await walk(X, 'DOWNSTREAM', { maxHops: 7 });
      expect(cycle.entities).toEqual([
        { urn: Y, degree: 1, degrees: [1, 4, 7] },
        { urn: Z, degree: 2, degrees: [2, 5] },
      ]);
      expect(cycle.truncated).toBe(false);
    });

    it('answers the shortest paths when asked', async () => {
      const found = await walkOf(await graphStore())(A, 'DOWNSTREAM', { paths: true });
      const paths = new Map(found.entities.map((e) => [e.urn, e.paths]));
      expect(paths.get(D)).toEqual([[A, B, C, D]]);
      expect(paths.get(G)).toEqual([
        [A, B, G],
        [A, E, G],
      ]);
      expect((await walkOf(await graphStore())(A, 'DOWNSTREAM')).entities[0]).not.toHaveProperty('paths');
    });

    it('keeps to time bounds: edges made or changed within them, edges with no times, edges drawn by hand', async () => {
      const walk = walkOf(await graphStore());
      expect(degrees(await walk(A, 'DOWNSTREAM', { maxHops: 1, between: { start: 0, end: 1500 } }))).toEqual([
        [B, 1],
        [E, 1],
      ]);
      expect(degrees(await walk(A, 'DOWNSTREAM', { maxHops: 1, between: { start: 5500, end: 7000 } }))).toEqual([
        [B, 1],
        [F, 1],
      ]);
      expect((await walk(H, 'DOWNSTREAM', { between: { start: 0, end: 10 } })).entities).toHaveLength(12);
    });

    it('is bounded: at most maxRows entity-hop pairs, saying it stopped', async () => {
      const found = await walkOf(await graphStore())(H, 'DOWNSTREAM', { maxRows: 5 });
      expect(found.truncated).toBe(true);
      expect(found.entities).toHaveLength(5);
      expect((await walkOf(await graphStore())(H, 'DOWNSTREAM', { maxRows: 12 })).truncated).toBe(false);
    });

    it('leaves out soft-deleted entities (walking on through them) and entities never stored, unless asked', async () => {
      const store = await graphStore();
      await store.write([keyed(status(C, true))], audit, anything);
      const walk = walkOf(store);
      expect(degrees(await walk(D, 'UPSTREAM'))).toEqual([
        [B, 2],
        [A, 3],
      ]);
      expect(degrees(await walk(D, 'UPSTREAM', { includeSoftDeleted: true, includeGhosts: true }))).toEqual([
        [C, 1],
        [B, 2],
        [A, 3],
        [GHOST, 4],
      ]);
    });

    it('follows lineage edges only: a user is no one’s lineage by its group membership', async () => {
      const walk = walkOf(await graphStore());
      expect((await walk('urn:li:corpuser:jdoe', 'DOWNSTREAM', { includeGhosts: true })).entities).toEqual([]);
      expect((await walk('urn:li:corpuser:jdoe', 'UPSTREAM', { includeGhosts: true })).entities).toEqual([]);
    });

    it('adjacent: one hop with each edge’s type and stamps, time bounds applied', async () => {
      const store = await graphStore();
      expect(await store.adjacent(A, lineageEdges('DOWNSTREAM'))).toEqual([
        {
          type: 'DownstreamOf',
          urn: B,
          direction: 'INCOMING',
          createdOn: null,
          createdActor: null,
          updatedOn: 0,
          updatedActor: 'urn:li:corpuser:jdoe',
          manual: false,
        },
        {
          type: 'DownstreamOf',
          urn: E,
          direction: 'INCOMING',
          createdOn: 1000,
          createdActor: 'urn:li:corpuser:maker',
          updatedOn: 1000,
          updatedActor: 'urn:li:corpuser:jdoe',
          manual: false,
        },
        {
          type: 'DownstreamOf',
          urn: F,
          direction: 'INCOMING',
          createdOn: 5000,
          createdActor: 'urn:li:corpuser:maker',
          updatedOn: 6000,
          updatedActor: 'urn:li:corpuser:jdoe',
          manual: false,
        },
      ]);
      expect((await store.adjacent(OUT, lineageEdges('UPSTREAM'))).map((e) => [e.type, e.urn, e.direction])).toEqual([
        ['Produces', JOB, 'INCOMING'],
      ]);
      expect((await store.adjacent(A, { ...lineageEdges('DOWNSTREAM'), between: { start: 5500, end: 7000 } })).map((e) => e.urn)).toEqual([
        B,
        F,
      ]);
      expect((await store.adjacent(ds('h00'), lineageEdges('UPSTREAM')))[0]).toMatchObject({ urn: H, manual: true, createdOn: 9000 });
    });

    it('column-level lineage: fields DownstreamOf fields, replaced with the declaring aspect and gone with it or its entity', async () => {
      const store = await graphStore();
      const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;
      const fineGrained = (urn: string, ...lineages: { downstreams?: string[]; upstreams: string[] }[]): TestWrite => ({
        urn,
        aspect: 'upstreamLineage',
        changeType: 'UPSERT',
        value: {
          upstreams: [{ dataset: A, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } }],
          fineGrainedLineages: lineages.map((l) => ({ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', ...l })),
        },
      });
      await store.write(
        [
          keyed(fineGrained(B, { downstreams: [field(B, 'id')], upstreams: [field(A, 'id'), field(A, 'key')] })),
          keyed(fineGrained(C, { downstreams: [field(C, 'id')], upstreams: [field(B, 'id')] })),
        ],
        audit,
        anything,
      );
      const walk = walkOf(store);
      const ghosts = { includeGhosts: true };
      expect(degrees(await walk(field(C, 'id'), 'UPSTREAM', ghosts))).toEqual([
        [field(B, 'id'), 1],
        [field(A, 'id'), 2],
        [field(A, 'key'), 2],
      ]);
      expect(degrees(await walk(field(A, 'key'), 'DOWNSTREAM', ghosts))).toEqual([
        [field(B, 'id'), 1],
        [field(C, 'id'), 2],
      ]);
      // The dataset's own edge to an upstream field (the model's @Relationship) stays beside them.
      expect((await store.adjacent(B, lineageEdges('UPSTREAM'))).map((e) => e.urn)).toEqual([A, field(A, 'id'), field(A, 'key')]);

      // A new value replaces the edges of the old one (DataHub stops at a lineage lacking its downstreams).
      await store.write(
        [
          keyed(
            fineGrained(
              B,
              { downstreams: [field(B, 'name')], upstreams: [field(A, 'name')] },
              { upstreams: [field(A, 'x')] },
              { downstreams: [field(B, 'z')], upstreams: [field(A, 'z')] },
            ),
          ),
        ],
        audit,
        anything,
      );
      expect(degrees(await walk(field(C, 'id'), 'UPSTREAM', ghosts))).toEqual([[field(B, 'id'), 1]]);
      expect(degrees(await walk(field(B, 'name'), 'UPSTREAM', ghosts))).toEqual([[field(A, 'name'), 1]]);
      expect((await walk(field(B, 'z'), 'UPSTREAM', ghosts)).entities).toEqual([]);

      await store.deleteAspects(B, ['upstreamLineage']);
      expect((await walk(field(B, 'name'), 'UPSTREAM', ghosts)).entities).toEqual([]);
      await store.deleteEntity(C);
      expect((await walk(field(C, 'id'), 'UPSTREAM', ghosts)).entities).toEqual([]);
    });

    /** A data job reading D and writing OUT, whose column-level lineage has OUT's field `a` computed from D's. */
    const jobLineage = (urn: string): TestWrite => ({
      urn,
      aspect: 'dataJobInputOutput',
      changeType: 'UPSERT',
      value: {
        inputDatasets: [D],
        outputDatasets: [OUT],
        fineGrainedLineages: [
          {
            upstreamType: 'FIELD_SET',
            downstreamType: 'FIELD',
            upstreams: [`urn:li:schemaField:(${D},a)`],
            downstreams: [`urn:li:schemaField:(${OUT},a)`],
          },
        ],
      },
    });

    it('column-level lineage of a data job and a chart’s input fields; reindex rebuilds them', async () => {
      const store = await graphStore();
      const field = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
      const CHART = 'urn:li:chart:(looker,revenue)';
      await store.write(
        [
          keyed(jobLineage(JOB)),
          keyed({
            urn: CHART,
            aspect: 'inputFields',
            changeType: 'UPSERT',
            value: {
              fields: [
                {
                  schemaFieldUrn: field(OUT, 'a'),
                  schemaField: {
                    fieldPath: 'amount (usd)',
                    nativeDataType: 'int',
                    type: { type: { 'com.linkedin.schema.NumberType': {} } },
                  },
                },
              ],
            },
          }),
        ],
        audit,
        anything,
      );
      const chartField = field(CHART, 'amount %28usd%29');
      const ghosts = { includeGhosts: true };
      expect(degrees(await walkOf(store)(chartField, 'UPSTREAM', ghosts))).toEqual([
        [field(OUT, 'a'), 1],
        [field(D, 'a'), 2],
      ]);
      await store.reindex();
      expect(degrees(await walkOf(store)(chartField, 'UPSTREAM', ghosts))).toEqual([
        [field(OUT, 'a'), 1],
        [field(D, 'a'), 2],
      ]);
      await store.deleteEntity(JOB);
      expect(degrees(await walkOf(store)(chartField, 'UPSTREAM', ghosts))).toEqual([[field(OUT, 'a'), 1]]);
    });

    it('the same field edge declared by two data jobs is each one’s: deleting one job, or its aspect, leaves the other’s', async () => {
      const store = await graphStore();
      const field = (parent: string, path: string) => `urn:li:schemaField:(${parent},${path})`;
      const NIGHTLY = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),nightly)';
      const BACKFILL = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,prod),backfill)';
      await store.write([keyed(jobLineage(NIGHTLY)), keyed(jobLineage(BACKFILL))], audit, anything);
      const upstreamOfOutA = async () => degrees(await walkOf(store)(field(OUT, 'a'), 'UPSTREAM', { includeGhosts: true }));
      expect(await upstreamOfOutA()).toEqual([[field(D, 'a'), 1]]);

      await store.deleteEntity(NIGHTLY);
      expect(await upstreamOfOutA()).toEqual([[field(D, 'a'), 1]]);
      await store.reindex();
      expect(await upstreamOfOutA()).toEqual([[field(D, 'a'), 1]]);

      await store.write([keyed(jobLineage(NIGHTLY))], audit, anything);
      await store.deleteAspects(BACKFILL, ['dataJobInputOutput']);
      expect(await upstreamOfOutA()).toEqual([[field(D, 'a'), 1]]);
      await store.deleteAspects(NIGHTLY, ['dataJobInputOutput']);
      expect(await upstreamOfOutA()).toEqual([]);
    });
  });
}
