import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { actor, errorOf } from './edit-support';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
// The query DataHub's SQL parsing aggregator writes in test_create_table_query_mcps.json (a SYSTEM one, with field subjects).
const GOLDEN = 'urn:li:query:f2e61c641cf14eae74147b6280ae40648516c4b7b58cfca6c4f7fb14ab255ce2';
const FOO = 'urn:li:dataset:(urn:li:dataPlatform:bigquery,dev.dataset.foo,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

const as = actor;
const analyst = () => as('urn:li:corpuser:quinn', Privilege.EDIT_ENTITY_QUERIES);
const reader = () => as('urn:li:corpuser:rita');

// The UI's `query` fragment (query.graphql), its origin's and platform's big fragments narrowed to their urns.
const QUERY_FIELDS = `urn type
  properties { name description source statement { value language } created { time actor }
    createdOn { time actor { urn type } } lastModified { time actor } origin { urn } customProperties { key value } }
  platform { urn }
  subjects { dataset { urn type } schemaField { urn type fieldPath } }`;
const LIST = `query listQueries($input: ListQueriesInput!) { listQueries(input: $input) { start total count queries { urn } } }`;
const CREATE = `mutation createQuery($input: CreateQueryInput!) { createQuery(input: $input) { ${QUERY_FIELDS} } }`;
const UPDATE = `mutation updateQuery($urn: String!, $input: UpdateQueryInput!) { updateQuery(urn: $urn, input: $input) { ${QUERY_FIELDS} } }`;
const DELETE = `mutation deleteQuery($urn: String!) { deleteQuery(urn: $urn) }`;
/** The UI's listQueries variables (useHighlightedQueries / usePopularQueries): a source and the dataset as an `entities` filter. */
const listInput = (source: string, dataset: string, extra: Record<string, unknown> = {}) => ({
  input: { start: 0, count: 10, source, orFilters: [{ and: [{ field: 'entities', values: [dataset] }] }], ...extra },
});
const createInput = (name: string, subjects: string[]) => ({
  input: {
    properties: { name, description: `${name}, described`, statement: { value: `SELECT * FROM ${name}`, language: 'SQL' } },
    subjects: subjects.map((datasetUrn) => ({ datasetUrn })),
  },
});

async function setup() {
  let clock = NOW;
  // The file's dataset `operation` is a time-series point, for the server's tests: only the query is kept.
  const api = await goldenGraphql(databases, ['test_create_table_query_mcps.json'], {
    now: () => clock,
    keep: (urn) => urn.startsWith('urn:li:query:'),
  });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  /** Runs `document` after the clock moved on a minute (each write stamped later than the one before). */
  const later = (document: string, variables: Record<string, unknown>, opts: { context: ApiContext }) => {
    clock += 60_000;
    return api.run(document, variables, opts);
  };
  return { ...api, stored, errorOf, later, clock: () => clock };
}

describe("Saved queries, as DataHub's QueryMapper and query resolvers answer them", () => {
  it('QueryEntity (QueryMapper, QueryPropertiesMapper): an ingested query, its field subjects under their dataset, its platform', async () => {
    const { run } = await setup();
    const read = await run(`query getQuery($urn: String!) { entity(urn: $urn) { urn type ... on QueryEntity { ${QUERY_FIELDS} } } }`, {
      urn: GOLDEN,
    });
    expect(read.errors).toBeUndefined();
    const stamp = { time: 1707182625000, actor: 'urn:li:corpuser:_ingestion' };
    expect(read.data!.entity).toEqual({
      urn: GOLDEN,
      type: 'QUERY',
      properties: {
        name: null,
        description: null,
        source: 'SYSTEM',
        statement: { value: 'CREATE OR REPLACE TABLE `dataset.foo` (\n  date_utc TIMESTAMP,\n  revenue INT64\n)', language: 'SQL' },
        created: stamp,
        createdOn: { time: stamp.time, actor: { urn: stamp.actor, type: 'CORP_USER' } },
        lastModified: stamp,
        origin: null,
        customProperties: [],
      },
      platform: { urn: 'urn:li:dataPlatform:bigquery' },
      subjects: [
        { dataset: { urn: FOO, type: 'DATASET' }, schemaField: null },
        {
          dataset: { urn: FOO, type: 'DATASET' },
          schemaField: { urn: `urn:li:schemaField:(${FOO},date_utc)`, type: 'SCHEMA_FIELD', fieldPath: 'date_utc' },
        },
        {
          dataset: { urn: FOO, type: 'DATASET' },
          schemaField: { urn: `urn:li:schemaField:(${FOO},revenue)`, type: 'SCHEMA_FIELD', fieldPath: 'revenue' },
        },
      ],
    });
    // Queries are looked up, never found by a search of every type (DataHub's SEARCHABLE_ENTITY_TYPES leave them out).
    const searched = await run(
      `{ searchAcrossEntities(input: { query: "*", start: 0, count: 50 }) { searchResults { entity { type } } } }`,
    );
    expect(searched.data!.searchAcrossEntities.searchResults.map((r: { entity: { type: string } }) => r.entity.type)).not.toContain(
      'QUERY',
    );
  });

  it("listQueries (ListQueriesResolver) narrows by the UI's source and dataset filter, and by datasetUrn", async () => {
    const { run } = await setup();
    const system = await run(LIST, listInput('SYSTEM', FOO), reader());
    expect(system.data).toEqual({ listQueries: { start: 0, total: 1, count: 1, queries: [{ urn: GOLDEN }] } });
    expect((await run(LIST, listInput('MANUAL', FOO), reader())).data!.listQueries).toEqual({ start: 0, total: 0, count: 0, queries: [] });
    expect((await run(LIST, listInput('SYSTEM', ORDERS), reader())).data!.listQueries.total).toBe(0);
    expect((await run(LIST, { input: { datasetUrn: FOO } }, reader())).data!.listQueries.total).toBe(1);
    expect((await run(LIST, { input: { datasetUrn: USERS } }, reader())).data!.listQueries.total).toBe(0);
  });

  it('createQuery (CreateQueryResolver, QueryService.createQuery) writes queryProperties (MANUAL, stamped) and querySubjects', async () => {
    const { run, stored, errorOf, clock } = await setup();
    const created = await run(CREATE, createInput('daily', [ORDERS, USERS]), analyst());
    expect(created.errors).toBeUndefined();
    const urn = created.data!.createQuery.urn as string;
    expect(urn).toMatch(/^urn:li:query:[0-9a-f-]{36}$/);
    const stamp = { time: clock(), actor: 'urn:li:corpuser:quinn' };
    expect(created.data!.createQuery).toEqual({
      urn,
      type: 'QUERY',
      properties: {
        name: 'daily',
        description: 'daily, described',
        source: 'MANUAL',
        statement: { value: 'SELECT * FROM daily', language: 'SQL' },
        created: stamp,
        createdOn: { time: stamp.time, actor: { urn: stamp.actor, type: 'CORP_USER' } },
        lastModified: stamp,
        origin: null,
        customProperties: [],
      },
      platform: null,
      subjects: [
        { dataset: { urn: ORDERS, type: 'DATASET' }, schemaField: null },
        { dataset: { urn: USERS, type: 'DATASET' }, schemaField: null },
      ],
    });
    expect(await stored(urn, 'queryProperties')).toEqual({
      statement: { value: 'SELECT * FROM daily', language: 'SQL' },
      source: 'MANUAL',
      name: 'daily',
      description: 'daily, described',
      created: stamp,
      lastModified: stamp,
    });
    expect(await stored(urn, 'querySubjects')).toEqual({ subjects: [{ entity: ORDERS }, { entity: USERS }] });
    expect((await run(LIST, listInput('MANUAL', USERS), reader())).data!.listQueries.queries).toEqual([{ urn }]);

    // EDIT_ENTITY_QUERIES (or EDIT_ENTITY) on every subject: without it, DataHub's text and nothing written.
    const refused = await run(CREATE, createInput('nope', [ORDERS]), reader());
    expect(errorOf(refused)).toEqual([
      { message: 'Unauthorized to create Query. Please contact your DataHub administrator for more information.', code: 403 },
    ]);
    expect((await run(LIST, listInput('MANUAL', ORDERS), reader())).data!.listQueries.total).toBe(1);
    expect((await run(CREATE, createInput('editor', [ORDERS]), as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY))).errors).toBeUndefined();

    // Bad input is the caller's 400, naming it.
    expect(errorOf(await run(CREATE, createInput('none', []), analyst()))).toEqual([
      { message: 'A query needs at least one subject dataset', code: 400 },
    ]);
    expect(errorOf(await run(CREATE, createInput('chart', ['urn:li:chart:(looker,1)']), analyst()))).toEqual([
      { message: 'Query subject urn:li:chart:(looker,1) is not a dataset urn', code: 400 },
    ]);
    expect(errorOf(await run(CREATE, createInput('bad', ['not-a-urn']), analyst()))).toEqual([
      { message: 'Invalid urn: not-a-urn', code: 400 },
    ]);
  });

  it('updateQuery (UpdateQueryResolver, QueryService.updateQuery) changes what is given, restamps lastModified, replaces subjects', async () => {
    const { run, later, stored, errorOf, clock } = await setup();
    const urn = (await run(CREATE, createInput('daily', [ORDERS]), analyst())).data!.createQuery.urn as string;
    const createdAt = clock();
    const updated = await later(
      UPDATE,
      { urn, input: { properties: { statement: { value: 'SELECT 1', language: 'SQL' } }, subjects: [{ datasetUrn: USERS }] } },
      as('urn:li:corpuser:una', Privilege.EDIT_ENTITY_QUERIES),
    );
    expect(updated.errors).toBeUndefined();
    const properties = await stored(urn, 'queryProperties');
    expect(properties).toEqual({
      statement: { value: 'SELECT 1', language: 'SQL' },
      source: 'MANUAL',
      name: 'daily',
      description: 'daily, described',
      created: { time: createdAt, actor: 'urn:li:corpuser:quinn' },
      lastModified: { time: clock(), actor: 'urn:li:corpuser:una' },
    });
    expect(await stored(urn, 'querySubjects')).toEqual({ subjects: [{ entity: USERS }] });
    expect(updated.data!.updateQuery.subjects).toEqual([{ dataset: { urn: USERS, type: 'DATASET' }, schemaField: null }]);
    expect(updated.data!.updateQuery.properties.lastModified).toEqual({ time: clock(), actor: 'urn:li:corpuser:una' });

    // Only the name given changes; the subjects stay when none are given.
    await later(UPDATE, { urn, input: { properties: { name: 'renamed' } } }, analyst());
    expect(await stored(urn, 'queryProperties')).toMatchObject({ name: 'renamed', statement: { value: 'SELECT 1' } });
    expect(await stored(urn, 'querySubjects')).toEqual({ subjects: [{ entity: USERS }] });

    const refused = await run(UPDATE, { urn, input: { properties: { name: 'x' } } }, reader());
    expect(errorOf(refused)).toEqual([
      { message: 'Unauthorized to update Query. Please contact your DataHub administrator if this needs corrective action.', code: 403 },
    ]);
    const absent = 'urn:li:query:absent';
    expect(errorOf(await run(UPDATE, { urn: absent, input: {} }, analyst()))).toEqual([
      { message: `Failed to find query with urn ${absent}`, code: 404 },
    ]);
    expect(errorOf(await run(UPDATE, { urn: ORDERS, input: {} }, analyst()))).toEqual([
      { message: `${ORDERS} is not a query urn`, code: 400 },
    ]);
  });

  it('deleteQuery (DeleteQueryResolver) removes the query, asked on its subjects', async () => {
    const { run, stored, errorOf } = await setup();
    const urn = (await run(CREATE, createInput('daily', [ORDERS]), analyst())).data!.createQuery.urn as string;
    expect(errorOf(await run(DELETE, { urn }, reader()))).toEqual([
      { message: 'Unauthorized to delete Query. Please contact your DataHub administrator if this needs corrective action.', code: 403 },
    ]);
    expect(await stored(urn, 'queryProperties')).toBeDefined();
    expect((await run(DELETE, { urn }, analyst())).data).toEqual({ deleteQuery: true });
    expect(await stored(urn, 'queryProperties')).toBeUndefined();
    expect((await run(LIST, listInput('MANUAL', ORDERS), reader())).data!.listQueries.total).toBe(0);
    expect((await run(`{ entity(urn: "${urn}") { urn } }`, undefined, reader())).data).toEqual({ entity: null });
    expect(errorOf(await run(DELETE, { urn }, analyst()))).toEqual([{ message: `Failed to find query with urn ${urn}`, code: 404 }]);
  });

  it('listQueries finds by name, orders newest first by default or by a sort asked, and pages; an unknown sort field is a 400', async () => {
    const { later, run, errorOf } = await setup();
    const urns: string[] = [];
    for (const name of ['beta', 'alpha', 'gamma'])
      urns.push((await later(CREATE, createInput(name, [ORDERS]), analyst())).data!.createQuery.urn);
    const list = async (extra: Record<string, unknown>) =>
      (await run(LIST, listInput('MANUAL', ORDERS, extra), reader())).data!.listQueries as { total: number; queries: { urn: string }[] };
    expect((await list({})).queries.map((q) => q.urn)).toEqual([urns[2], urns[1], urns[0]]);
    expect((await run(LIST, { input: { query: 'alpha' } }, reader())).data!.listQueries.queries).toEqual([{ urn: urns[1] }]);
    const byName = await list({ sortInput: { sortCriterion: { field: 'name', sortOrder: 'ASCENDING' } } });
    expect(byName.queries.map((q) => q.urn)).toEqual([urns[1], urns[0], urns[2]]);
    const paged = await list({ start: 1, count: 1, sortInput: { sortCriterion: { field: 'createdAt', sortOrder: 'ASCENDING' } } });
    expect(paged).toEqual({ start: 1, count: 1, total: 3, queries: [{ urn: urns[1] }] });
    const unknown = await run(
      LIST,
      listInput('MANUAL', ORDERS, { sortInput: { sortCriterion: { field: 'statement', sortOrder: 'ASCENDING' } } }),
      reader(),
    );
    expect(errorOf(unknown)).toEqual([
      { message: 'Queries cannot be sorted by statement; sort by one of createdAt, lastModifiedAt, name', code: 400 },
    ]);
  });
});
