import { testDatabases } from '@mds/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { sharedSecrets } from './support/replicas';

// Search as DataHub's web UI sends it (issue 31): searchAcrossEntities, aggregateAcrossEntities, scrollAcrossEntities,
// autocomplete, browseV2 and entities(checkForExistence:) over DataHub's bootstrap sample, plus a stored view and a
// domain hierarchy, on SQLite and PostgreSQL. The UI's own documents select fragments of entity types other helpers
// are adding (entityDisplayNameFields, searchResultFields …), so these documents have the UI's shape with the entity
// fields mds declares today; variables are those of variables.json where the UI's pages send them.
const HIVE = 'urn:li:dataPlatform:hive';
const HIVE_DATASETS = ['SampleHiveDataset', 'fct_users_created', 'fct_users_deleted', 'logging_events'].map(
  (name) => `urn:li:dataset:(${HIVE},${name},PROD)`,
);
const KAFKA_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
const HDFS_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)';
const VIEW = 'urn:li:dataHubView:hive-only';

const SEARCH = `query getSearchResultsForMultiple($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    start count total
    searchResults { entity { urn type } matchedFields { name value entity { urn type } } insights { text icon } extraProperties { name value } }
    facets { field displayName entity { urn } aggregations { value count displayName entity { urn type ... on DataPlatform { name } } } }
    suggestions { text frequency score }
  }
}`;
const AGGREGATE = `query aggregateAcrossEntities($input: AggregateAcrossEntitiesInput!) {
  aggregateAcrossEntities(input: $input) { facets { field displayName aggregations { value count entity { urn } } } }
}`;
const SCROLL = `query scrollAcrossEntities($input: ScrollAcrossEntitiesInput!) {
  scrollAcrossEntities(input: $input) { nextScrollId count total searchResults { entity { urn type } } facets { field } }
}`;
const AUTOCOMPLETE_MULTIPLE = `query getAutoCompleteMultipleResults($input: AutoCompleteMultipleInput!) {
  autoCompleteForMultiple(input: $input) { query suggestions { type suggestions entities { urn type } } }
}`;
const AUTOCOMPLETE = `query getAutoCompleteResults($input: AutoCompleteInput!) {
  autoComplete(input: $input) { query suggestions entities { urn type } }
}`;
const BROWSE = `query getBrowseResultsV2($input: BrowseV2Input!) {
  browseV2(input: $input) { groups { name count hasSubGroups entity { urn } } start count total metadata { path totalNumEntities } }
}`;
const BROWSE_V1 = `query getBrowseResults($input: BrowseInput!) {
  browse(input: $input) { entities { urn type } start count total groups { name count } metadata { path totalNumEntities } }
}`;
const BROWSE_PATHS = `query getBrowsePaths($input: BrowsePathsInput!) { browsePaths(input: $input) { path } }`;
const ENTITIES = `query getEntities($urns: [String!]!, $checkForExistence: Boolean) { entities(urns: $urns, checkForExistence: $checkForExistence) { urn type } }`;

const proposal = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
  entityType,
  entityUrn,
  aspectName,
  changeType: 'UPSERT',
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});

const databases = testDatabases();

describe.each(['sqlite', 'postgres'] as const)('search as the UI sends it, on %s', (dialect) => {
  let mds: Mds;
  beforeAll(async () => {
    mds = await startMds(dialect === 'postgres' ? { DATABASE_URL: await databases.create(), ...sharedSecrets() } : {});
    await ingestSnapshots(mds);
    const proposals = [
      // A view of hive datasets, as the UI's view editor stores one (dataHubViewInfo.definition).
      proposal('dataHubView', VIEW, 'dataHubViewInfo', {
        name: 'Hive only',
        type: 'GLOBAL',
        definition: {
          entityTypes: ['dataset'],
          filter: { or: [{ and: [{ field: 'platform', value: HIVE, values: [HIVE], condition: 'EQUAL', negated: false }] }] },
        },
        created: { time: 1, actor: 'urn:li:corpuser:datahub' },
        lastModified: { time: 1, actor: 'urn:li:corpuser:datahub' },
      }),
      // finance ⊃ payroll; the kafka dataset is in payroll, the hdfs one in finance itself.
      proposal('domain', 'urn:li:domain:finance', 'domainProperties', { name: 'Finance' }),
      proposal('domain', 'urn:li:domain:payroll', 'domainProperties', { name: 'Payroll', parentDomain: 'urn:li:domain:finance' }),
      proposal('dataset', KAFKA_DATASET, 'domains', { domains: ['urn:li:domain:payroll'] }),
      proposal('dataset', HDFS_DATASET, 'domains', { domains: ['urn:li:domain:finance'] }),
      // The older browse paths, for browse and browsePaths.
      ...HIVE_DATASETS.map((urn) => proposal('dataset', urn, 'browsePaths', { paths: ['/prod/hive'] })),
      proposal('dataset', KAFKA_DATASET, 'browsePaths', { paths: ['/prod/kafka'] }),
    ];
    const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
    expect([res.status, res.body?.message]).toEqual([200, undefined]);
  });
  afterAll(() => mds?.close());

  const answer = async (query: string, variables: Record<string, unknown>) => {
    const result = await mds.graphql(query, variables);
    expect(graphqlError(result)).toBeUndefined();
    return result.body.data;
  };
  const refusal = async (query: string, variables: Record<string, unknown>) => graphqlError(await mds.graphql(query, variables));
  const urns = (results: { entity: { urn: string } }[]) => results.map((r) => r.entity.urn).sort();

  it("answers getSearchResultsForMultiple with the UI's variables: hits, matched fields, facets with their entities, no suggestions when found", async () => {
    const { searchAcrossEntities: found } = await answer(SEARCH, {
      input: {
        types: [],
        query: 'sample',
        start: 0,
        count: 10,
        filters: [],
        orFilters: [],
        searchFlags: { getSuggestions: true, includeStructuredPropertyFacets: true },
      },
    });
    expect(urns(found.searchResults)).toEqual([HDFS_DATASET, HIVE_DATASETS[0], KAFKA_DATASET].sort());
    expect(found).toMatchObject({ start: 0, count: 3, total: 3, suggestions: [] });
    for (const result of found.searchResults) {
      expect(result.matchedFields).toContainEqual({ name: 'name', value: result.entity.urn.split(',')[1], entity: null });
      expect([result.insights, result.extraProperties]).toEqual([[], []]);
    }
    const platform = found.facets.find((f: { field: string }) => f.field === 'platform');
    expect(platform).toMatchObject({ displayName: 'Platform', entity: null });
    expect(platform.aggregations).toContainEqual({
      value: HIVE,
      count: 1,
      displayName: null,
      entity: { urn: HIVE, type: 'DATA_PLATFORM', name: 'hive' },
    });
    const types = found.facets.find((f: { field: string }) => f.field === '_entityType');
    expect(types.aggregations).toContainEqual({ value: 'DATASET', count: 3, displayName: null, entity: null });
  });

  it('filters with orFilters (an OR of AND-groups), negation and the UI’s platform filter', async () => {
    const search = async (orFilters: unknown) =>
      urns((await answer(SEARCH, { input: { types: ['DATASET'], query: '*', count: 20, orFilters } })).searchAcrossEntities.searchResults);
    expect(await search([{ and: [{ field: 'platform', values: [HIVE], negated: false, condition: 'EQUAL' }] }])).toEqual(
      [...HIVE_DATASETS].sort(),
    );
    expect(
      await search([
        {
          and: [
            { field: 'platform', values: [HIVE] },
            { field: 'name', values: ['logging_events'], negated: true },
          ],
        },
        { and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] },
      ]),
    ).toEqual([...HIVE_DATASETS.filter((u) => !u.includes('logging_events')), KAFKA_DATASET].sort());
  });

  it('suggests close names when asked and the words found nothing', async () => {
    const { searchAcrossEntities: found } = await answer(SEARCH, {
      input: { query: 'SampleHiveDatset', searchFlags: { getSuggestions: true } },
    });
    expect(found.total).toBe(0);
    expect(found.suggestions[0]).toEqual({ text: 'SampleHiveDataset', frequency: 1, score: 1 - 1 / 17 });
    const unasked = await answer(SEARCH, { input: { query: 'SampleHiveDatset' } });
    expect(unasked.searchAcrossEntities.suggestions).toEqual([]);
  });

  it('leaves matchedFields out with skipHighlighting and facets out with skipAggregates', async () => {
    const { searchAcrossEntities: found } = await answer(SEARCH, {
      input: { query: 'sample', searchFlags: { skipHighlighting: true, skipAggregates: true } },
    });
    expect(found.total).toBe(3);
    expect(found.searchResults.every((r: { matchedFields: unknown[] }) => r.matchedFields.length === 0)).toBe(true);
    expect(found.facets).toEqual([]);
  });

  it('ANDs a stored view’s filter and entity types in (viewUrn), and ignores a view that is not stored', async () => {
    const viewed = async (input: Record<string, unknown>) =>
      urns((await answer(SEARCH, { input: { query: '*', count: 50, ...input } })).searchAcrossEntities.searchResults);
    expect(await viewed({ viewUrn: VIEW })).toEqual([...HIVE_DATASETS].sort());
    expect(
      await viewed({ viewUrn: VIEW, orFilters: [{ and: [{ field: 'name', values: ['fct_users_created', 'SampleKafkaDataset'] }] }] }),
    ).toEqual([HIVE_DATASETS[1]]);
    expect(await viewed({ viewUrn: VIEW, types: ['DASHBOARD'] })).toEqual([]);
    expect((await viewed({ viewUrn: 'urn:li:dataHubView:absent' })).length).toBeGreaterThan(HIVE_DATASETS.length);
    expect(await refusal(SEARCH, { input: { query: '*', viewUrn: 'not a urn' } })).toEqual({
      message: 'Invalid urn: not a urn',
      code: 400,
    });
    const { aggregateAcrossEntities } = await answer(AGGREGATE, { input: { query: '*', facets: ['platform'], viewUrn: VIEW } });
    expect(aggregateAcrossEntities.facets[0].aggregations).toEqual([{ value: HIVE, count: 4, entity: { urn: HIVE } }]);
  });

  it('expands domains along IsPartOf for DESCENDANTS_INCL and ANCESTORS_INCL', async () => {
    const inDomain = async (condition: string, domain: string, types = ['DATASET']) =>
      urns(
        (await answer(SEARCH, { input: { types, query: '*', orFilters: [{ and: [{ field: 'domains', values: [domain], condition }] }] } }))
          .searchAcrossEntities.searchResults,
      );
    expect(await inDomain('EQUAL', 'urn:li:domain:finance')).toEqual([HDFS_DATASET]);
    expect(await inDomain('DESCENDANTS_INCL', 'urn:li:domain:finance')).toEqual([HDFS_DATASET, KAFKA_DATASET].sort());
    expect(await inDomain('ANCESTORS_INCL', 'urn:li:domain:payroll')).toEqual([HDFS_DATASET, KAFKA_DATASET].sort());
    expect(await inDomain('DESCENDANTS_INCL', 'urn:li:domain:payroll')).toEqual([KAFKA_DATASET]);
    expect(await inDomain('RELATED_INCL', 'urn:li:domain:payroll')).toEqual([HDFS_DATASET, KAFKA_DATASET].sort());
  });

  it("answers aggregateAcrossEntities with the UI's variables: only the facets asked for, at most maxAggValues values", async () => {
    const { aggregateAcrossEntities: platforms } = await answer(AGGREGATE, {
      input: { query: '*', facets: ['platform'], searchFlags: { maxAggValues: 40 }, types: null, orFilters: [] },
    });
    expect(platforms.facets.map((f: { field: string }) => f.field)).toEqual(['platform']);
    expect(platforms.facets[0].aggregations[0]).toEqual({ value: HIVE, count: 4, entity: { urn: HIVE } });
    const { aggregateAcrossEntities: types } = await answer(AGGREGATE, {
      input: { types: [], facets: ['_entityType'], orFilters: [], query: 'sample', searchFlags: { maxAggValues: 1 } },
    });
    expect(types.facets.map((f: { field: string }) => f.field)).toEqual(['_entityType']);
    // One counted value; the searched types without a match keep their bucket at zero (entities-api §12.42).
    expect(types.facets[0].aggregations.filter((a: { count: number }) => a.count > 0)).toEqual([
      { value: 'DATASET', count: 3, entity: null },
    ]);
    expect(await refusal(AGGREGATE, { input: { query: '*', facets: ['platform', 'colour'] } })).toEqual({
      message: expect.stringMatching(/^Unknown facet colour: facets are _entityType, platform/),
      code: 400,
    });
    expect(await refusal(AGGREGATE, { input: { query: '*', searchFlags: { maxAggValues: -1 } } })).toEqual({
      message: "'maxAggValues' must be an integer from 0 to 1000",
      code: 400,
    });
  });

  it('scrolls a page at a time to the end, each entity once, and refuses a scroll id it did not give', async () => {
    const seen: string[] = [];
    let scrollId: string | null = null;
    let pages = 0;
    do {
      const { scrollAcrossEntities: page }: { scrollAcrossEntities: any } = await answer(SCROLL, {
        input: {
          scrollId,
          query: '*',
          types: ['DATASET'],
          count: 4,
          sortInput: { sortCriteria: [{ field: '_entityName', sortOrder: 'ASCENDING' }] },
        },
      });
      expect(page.total).toBe(7);
      seen.push(...page.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn));
      scrollId = page.nextScrollId;
      pages++;
    } while (scrollId && pages < 5);
    expect(pages).toBe(2);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    // By name, case aside: fct_users_created, fct_users_deleted, logging_events, SampleHdfsDataset, ...
    expect(seen[0]).toBe(HIVE_DATASETS[1]);
    expect(await refusal(SCROLL, { input: { query: '*', scrollId: 'bm9wZQ' } })).toEqual({
      message: 'Invalid scrollId: bm9wZQ is not a nextScrollId of scrollAcrossEntities',
      code: 400,
    });
  });

  it('sorts by _entityName either way and by one sortCriterion', async () => {
    const sorted = async (sortInput: unknown) =>
      (await answer(SEARCH, { input: { types: ['DATASET'], query: '*', count: 2, sortInput } })).searchAcrossEntities.searchResults.map(
        (r: { entity: { urn: string } }) => r.entity.urn,
      );
    expect(await sorted({ sortCriterion: { field: '_entityName', sortOrder: 'DESCENDING' } })).toEqual([KAFKA_DATASET, HIVE_DATASETS[0]]);
    expect(await sorted({ sortCriteria: [{ field: '_entityName', sortOrder: 'ASCENDING' }] })).toEqual([
      HIVE_DATASETS[1],
      HIVE_DATASETS[2],
    ]);
    expect(
      await refusal(SEARCH, { input: { query: '*', sortInput: { sortCriterion: { field: 'colour', sortOrder: 'ASCENDING' } } } }),
    ).toEqual({
      message: 'Cannot sort by colour: sort by name or urn',
      code: 400,
    });
  });

  it('refuses a filter on an unknown field and an operator outside FilterOperator, as 400s', async () => {
    expect(await refusal(SEARCH, { input: { query: '*', orFilters: [{ and: [{ field: 'colour', values: ['red'] }] }] } })).toMatchObject({
      message: expect.stringMatching(/^Unknown filter field colour/),
      code: 400,
    });
    const result = await mds.graphql(SEARCH, {
      input: { query: '*', orFilters: [{ and: [{ field: 'platform', values: [HIVE], condition: 'LIKE' }] }] },
    });
    expect(result.status).toBe(400);
    expect(result.body.errors[0].message).toMatch(/Value "LIKE" does not exist in "FilterOperator" enum/);
  });

  it("autocompletes several types with the UI's variables, within filters and a view, and one type", async () => {
    const { autoCompleteForMultiple } = await answer(AUTOCOMPLETE_MULTIPLE, { input: { query: 'sample' } });
    const datasets = autoCompleteForMultiple.suggestions.find((s: { type: string }) => s.type === 'DATASET');
    expect(datasets.suggestions.sort()).toEqual(['SampleHdfsDataset', 'SampleHiveDataset', 'SampleKafkaDataset']);
    expect(datasets.entities).toHaveLength(3);
    const viewed = await answer(AUTOCOMPLETE_MULTIPLE, { input: { query: 'sample', viewUrn: VIEW } });
    expect(viewed.autoCompleteForMultiple.suggestions).toEqual([
      { type: 'DATASET', suggestions: ['SampleHiveDataset'], entities: [{ urn: HIVE_DATASETS[0], type: 'DATASET' }] },
    ]);
    const filtered = await answer(AUTOCOMPLETE_MULTIPLE, {
      input: { query: 'sample', types: ['DATASET'], orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }] },
    });
    expect(filtered.autoCompleteForMultiple.suggestions[0].suggestions).toEqual(['SampleKafkaDataset']);
    const { autoComplete } = await answer(AUTOCOMPLETE, { input: { type: 'TAG', query: 'leg', limit: 10 } });
    expect(autoComplete).toEqual({ query: 'leg', suggestions: ['Legacy'], entities: [{ urn: 'urn:li:tag:Legacy', type: 'TAG' }] });
    expect(await refusal(AUTOCOMPLETE_MULTIPLE, { input: { query: ' ' } })).toEqual({
      message: "'query' parameter can not be null or empty",
      code: 400,
    });
    expect(await refusal(AUTOCOMPLETE, { input: { query: 'leg' } })).toEqual({
      message: "autoComplete needs 'type': the entity type to complete",
      code: 400,
    });
  });

  it("browses with the UI's variables: counts as Long, the path asked for", async () => {
    const { browseV2 } = await answer(BROWSE, { input: { type: 'DATASET', path: [], start: 0, count: 20, orFilters: [], query: '*' } });
    expect(browseV2.metadata.path).toEqual([]);
    expect(browseV2.groups.every((g: { count: unknown }) => typeof g.count === 'number')).toBe(true);
    const viewed = await answer(BROWSE, { input: { type: 'DATASET', path: [], query: '*', viewUrn: VIEW } });
    expect(viewed.browseV2.metadata.totalNumEntities).toBe(4);
  });

  it("answers getBrowseResults and getBrowsePaths with the UI's variables, over the stored browsePaths", async () => {
    const { browse } = await answer(BROWSE_V1, { input: { type: 'DATASET', path: ['prod'], start: 0, count: 10, filters: null } });
    expect(browse).toEqual({
      entities: [],
      start: 0,
      count: 10,
      total: 3,
      // The bootstrap sample's hdfs dataset has browse paths of its own.
      groups: [
        { name: 'hdfs', count: 1 },
        { name: 'hive', count: 4 },
        { name: 'kafka', count: 1 },
      ],
      metadata: { path: ['prod'], totalNumEntities: 6 },
    });
    const hive = (await answer(BROWSE_V1, { input: { type: 'DATASET', path: ['prod', 'hive'], start: 1, count: 2 } })).browse;
    expect([hive.total, hive.entities.length, hive.metadata]).toEqual([4, 2, { path: ['prod', 'hive'], totalNumEntities: 4 }]);
    const filtered = await answer(BROWSE_V1, {
      input: { type: 'DATASET', path: ['prod', 'hive'], filters: [{ field: 'name', values: ['logging_events'] }] },
    });
    expect(filtered.browse.entities).toEqual([{ urn: HIVE_DATASETS[3], type: 'DATASET' }]);
    expect((await answer(BROWSE_PATHS, { input: { urn: HIVE_DATASETS[0], type: 'DATASET' } })).browsePaths).toEqual([
      { path: ['prod', 'hive'] },
    ]);
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)';
    expect((await answer(BROWSE_PATHS, { input: { urn: absent, type: 'DATASET' } })).browsePaths).toEqual([]);
    expect(await refusal(BROWSE_PATHS, { input: { urn: 'nope', type: 'DATASET' } })).toEqual({ message: 'Invalid urn: nope', code: 400 });
  });

  it('answers getEntities, leaving out urns not stored when checkForExistence', async () => {
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)';
    const asked = [HIVE_DATASETS[0], absent, HIVE];
    expect((await answer(ENTITIES, { urns: asked })).entities).toEqual([
      { urn: HIVE_DATASETS[0], type: 'DATASET' },
      null,
      { urn: HIVE, type: 'DATA_PLATFORM' },
    ]);
    expect((await answer(ENTITIES, { urns: asked, checkForExistence: true })).entities).toEqual([
      { urn: HIVE_DATASETS[0], type: 'DATASET' },
      { urn: HIVE, type: 'DATA_PLATFORM' },
    ]);
  });
});
