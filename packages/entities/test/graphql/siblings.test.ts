import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch } from '../../src/model/patch';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';
import { ds, errorOf, upsert } from './edit-support';
import { goldenGraphql, goldenItems } from './golden';
import { deactivateAllUsersPolicies } from '../faces';
import { schemaOf } from './schema';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's dbt golden with the target platform primary (test/fixtures/datahub/SOURCES.md): each dbt model's
// `siblings` is an UPSERT naming its postgres table, each table's a PATCH naming its model and setting `primary`.
const GOLDEN = 'dbt_test_target_platform_primary_siblings_golden.json';
const MODEL = ds('dbt', 'pagila.public.actor');
const TABLE = ds('postgres', 'pagila.public.actor');

const SIBLINGS = `query siblings($urn: String!) { dataset(urn: $urn) { urn siblings { isPrimary siblings { urn type ... on Dataset { name exists } } } } }`;
const SEARCH = `query siblingsSearch($urn: String!, $input: ScrollAcrossEntitiesInput!) {
  dataset(urn: $urn) { siblingsSearch(input: $input) { nextScrollId count total searchResults { entity { urn type } } } } }`;

interface GoldenItem {
  entityUrn?: string;
  changeType?: string;
  aspectName?: string;
  aspect?: { json: unknown };
}
/** The golden's `siblings` items: the UPSERTed values and the PATCHes, by urn. */
const goldenSiblings = () => (goldenItems(GOLDEN) as GoldenItem[]).filter((item) => item.aspectName === 'siblings');

const urnsOf = (page: { searchResults: { entity: { urn: string } }[] }) => page.searchResults.map((r) => r.entity.urn);

describe("Dataset.siblings, as DataHub's SiblingsMapper and the SiblingProperties.siblings batch load answer it", () => {
  it("answers every dataset of DataHub's dbt golden from its stored aspect: isPrimary is `primary`, siblings its urns in order", async () => {
    const api = await goldenGraphql(databases, [GOLDEN]);
    const items = goldenSiblings();
    expect(items).toHaveLength(30);
    for (const item of items) {
      const urn = item.entityUrn!;
      // What DataHub stores: the UPSERT's value, or its SiblingsTemplate's default with the PATCH applied.
      const expected = item.changeType === 'PATCH' ? applyPatch('siblings', undefined, item.aspect!.json) : item.aspect!.json;
      const stored = (await api.store.latest([urn], ['siblings'])).get(urn)?.get('siblings')?.value;
      expect(stored).toEqual(expected);
      const { dataset } = await api.query(SIBLINGS, { urn });
      expect(dataset.siblings.isPrimary).toBe((expected as { primary: boolean }).primary);
      expect(dataset.siblings.siblings.map((s: { urn: string }) => s.urn)).toEqual((expected as { siblings: string[] }).siblings);
    }
    expect((await api.store.latest([TABLE], ['siblings'])).get(TABLE)?.get('siblings')?.value).toEqual({
      siblings: [MODEL],
      primary: true,
    });
    // The table is the primary one; each names the other, answered as the dataset it is (DatasetMapper's name: the
    // model's datasetProperties name, the table's key, as only the PATCH made it).
    expect((await api.query(SIBLINGS, { urn: TABLE })).dataset.siblings).toEqual({
      isPrimary: true,
      siblings: [{ urn: MODEL, type: 'DATASET', name: 'actor', exists: true }],
    });
    expect((await api.query(SIBLINGS, { urn: MODEL })).dataset.siblings).toEqual({
      isPrimary: false,
      siblings: [{ urn: TABLE, type: 'DATASET', name: 'pagila.public.actor', exists: true }],
    });
  });

  it("patches `siblings` as DataHub's SiblingsTemplate does: urns keyed by themselves, `primary` false by default", () => {
    const other = ds('snowflake', 'pagila.public.actor');
    expect(applyPatch('siblings', undefined, [{ op: 'add', path: `/siblings/${MODEL}`, value: MODEL }])).toEqual({
      siblings: [MODEL],
      primary: false,
    });
    const current = { siblings: [MODEL, TABLE], primary: true };
    const patched = applyPatch('siblings', current, [
      { op: 'add', path: `/siblings/${other}`, value: other },
      { op: 'add', path: `/siblings/${MODEL}`, value: MODEL },
      { op: 'remove', path: `/siblings/${TABLE}` },
    ]);
    expect(patched).toEqual({ siblings: [MODEL, other], primary: true });
    expect(current).toEqual({ siblings: [MODEL, TABLE], primary: true });
  });

  it('answers a sibling that is not stored with what its urn says (exists: false), and null for a dataset without siblings', async () => {
    const api = await goldenGraphql(databases, [GOLDEN]);
    const gone = ds('snowflake', 'pagila.public.gone');
    await api.service.ingest(SYSTEM_ACTOR, [upsert(MODEL, 'siblings', { siblings: [gone, TABLE], primary: false })], { batch: false });
    expect((await api.query(SIBLINGS, { urn: MODEL })).dataset.siblings.siblings).toEqual([
      { urn: gone, type: 'DATASET', name: 'pagila.public.gone', exists: false },
      { urn: TABLE, type: 'DATASET', name: 'pagila.public.actor', exists: true },
    ]);
    const lonely = ds('postgres', 'pagila.public.lonely');
    await api.service.ingest(SYSTEM_ACTOR, [upsert(lonely, 'status', { removed: false })], { batch: false });
    expect((await api.query(SIBLINGS, { urn: lonely })).dataset.siblings).toBeNull();
    expect((await api.query(SEARCH, { urn: lonely, input: { query: '*', count: 5 } })).dataset.siblingsSearch).toEqual({
      nextScrollId: null,
      count: 0,
      total: 0,
      searchResults: [],
    });
  });

  it('leaves out the siblings the caller may not view when VIEW_AUTHORIZATION_ENABLED is on (SiblingsMapper canView)', async () => {
    const entities = await createEntities({ db: await databases.open(), authorization: { restApi: true, view: true } });
    const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
    const olive = 'urn:li:corpuser:olive';
    const owned = ds('postgres', 'owned_table');
    const foreign = ds('postgres', 'foreign_table');
    const ownership = { owners: [{ owner: olive, type: 'DATAOWNER' }], lastModified: { time: 0, actor: olive } };
    await entities.service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(MODEL, 'siblings', { siblings: [foreign, owned], primary: false }),
        upsert(MODEL, 'ownership', ownership),
        upsert(owned, 'ownership', ownership),
        upsert(foreign, 'status', { removed: false }),
      ],
      { batch: false },
    );
    const asked = async (privileges: Privilege[]) => {
      const contextValue: ApiContext = { actor: { urn: olive, privileges: new Set(privileges) }, requestId: `view-${privileges.length}` };
      const result = (await graphql({ schema, source: SIBLINGS, variableValues: { urn: MODEL }, contextValue })) as ExecutionResult<
        Record<string, any>
      >;
      expect(result.errors).toBeUndefined();
      return result.data!.dataset.siblings.siblings.map((s: { urn: string }) => s.urn);
    };
    // DataHub's "All Users - View Entity Page" policy lets anyone view both; deactivated (as an operator may), Olive
    // owns the model and one sibling: the other is not hers to view, so it is not listed.
    expect(await asked([])).toEqual([foreign, owned]);
    await deactivateAllUsersPolicies(entities.service);
    expect(await asked([])).toEqual([owned]);
    expect(await asked([Privilege.VIEW_ENTITY_PAGE])).toEqual([foreign, owned]);
  });
});

describe("Dataset.siblingsSearch, as DataHub's SiblingsSearchResolver: the one scroll search, among the entities naming this one", () => {
  /** The dbt golden, and three more datasets that name the postgres table as their sibling. */
  async function named() {
    const api = await goldenGraphql(databases, [GOLDEN]);
    const others = [ds('snowflake', 'pagila.public.actor'), ds('bigquery', 'pagila.public.actor'), ds('hive', 'pagila.public.actor')];
    await api.service.ingest(
      SYSTEM_ACTOR,
      others.map((urn) => upsert(urn, 'siblings', { siblings: [TABLE], primary: false })),
      { batch: false },
    );
    const search = async (input: Record<string, unknown>, urn = TABLE) => (await api.query(SEARCH, { urn, input })).dataset.siblingsSearch;
    return { ...api, others, search };
  }

  it('finds the datasets whose siblings name this one, and pages through them by scroll id', async () => {
    const { search, others, run } = await named();
    const all = await search({ query: '*', count: 10 });
    expect(all.total).toBe(4);
    expect(new Set(urnsOf(all))).toEqual(new Set([MODEL, ...others]));
    expect(all.nextScrollId).toBeNull();

    const first = await search({ query: '*', count: 3 });
    expect(first).toMatchObject({ count: 3, total: 4 });
    expect(first.nextScrollId).toEqual(expect.any(String));
    const rest = await search({ query: '*', count: 3, scrollId: first.nextScrollId });
    expect(rest).toMatchObject({ count: 1, total: 4, nextScrollId: null });
    expect(new Set([...urnsOf(first), ...urnsOf(rest)])).toEqual(new Set(urnsOf(all)));

    // The model's search finds the table (it names the model); a stranger's scroll id is the caller's 400.
    expect(urnsOf(await search({ query: '*', count: 5 }, MODEL))).toEqual([TABLE]);
    const bad = await run(SEARCH, { urn: TABLE, input: { query: '*', count: 3, scrollId: 'not-a-scroll-id' } });
    expect(errorOf(bad)?.[0]?.code).toBe(400);
    const negative = await run(SEARCH, { urn: TABLE, input: { query: '*', count: -1 } });
    expect(errorOf(negative)?.[0]?.code).toBe(400);
  });

  it("narrows by the input's types, orFilters and query, as the search it is", async () => {
    const { search, others } = await named();
    expect((await search({ query: '*', count: 10, types: ['CHART'] })).total).toBe(0);
    const filtered = await search({
      query: '*',
      count: 10,
      orFilters: [
        { and: [{ field: 'platform', values: ['urn:li:dataPlatform:snowflake'] }] },
        { and: [{ field: 'platform', values: ['urn:li:dataPlatform:dbt'] }] },
      ],
    });
    expect(new Set(urnsOf(filtered))).toEqual(new Set([others[0], MODEL]));
    // Every one of them is called actor: a query for another name finds none of them, though it is in the index.
    expect((await search({ query: 'actor', count: 10 })).total).toBe(4);
    expect((await search({ query: 'payment', count: 10 })).total).toBe(0);
  });
});

describe("siblingsSearch of every hit of a search page (the UI's search results ask it of each dataset)", () => {
  const PAGE = `query page($count: Int!) {
    searchAcrossEntities(input: { types: [DATASET], query: "*", start: 0, count: $count }) {
      searchResults { entity { urn ... on Dataset { siblingsSearch(input: { query: "*", count: 1 }) { nextScrollId count total searchResults { entity { urn type } } } } } }
    }
  }`;

  it('answers each as its own search would, from one search of the index per 25 hits rather than one per hit', async () => {
    const api = await goldenGraphql(databases, [GOLDEN]);
    const searches = vi.spyOn(api.entities.search, 'search');
    const { searchAcrossEntities } = await api.query(PAGE, { count: 40 });
    const hits = searchAcrossEntities.searchResults as { entity: { urn: string; siblingsSearch: unknown } }[];
    expect(hits.length).toBeGreaterThan(25);
    // The page's search, then one for the siblings of the first 25 hits and one for the rest.
    expect(searches).toHaveBeenCalledTimes(1 + Math.ceil(hits.length / 25));
    // The selection asks no facets of them: none are counted (the answer's facets are empty either way).
    expect(searches.mock.calls.slice(1).map(([query]) => query.facets)).toEqual([[], []]);
    searches.mockRestore();
    let withSiblings = 0;
    for (const hit of hits) {
      const alone = (await api.query(SEARCH, { urn: hit.entity.urn, input: { query: '*', count: 1 } })).dataset.siblingsSearch;
      expect(hit.entity.siblingsSearch).toEqual(alone);
      if (alone.total > 0) withSiblings += 1;
    }
    expect(withSiblings).toBe(30);
    const table = hits.find((hit) => hit.entity.urn === TABLE)!.entity.siblingsSearch;
    expect(table).toEqual({ nextScrollId: null, count: 1, total: 1, searchResults: [{ entity: { urn: MODEL, type: 'DATASET' } }] });
  });
});
