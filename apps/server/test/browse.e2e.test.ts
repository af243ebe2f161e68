import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestGolden, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// search, browseV2 and autoCompleteForMultiple (entities-api §9.3) over DataHub's bootstrap file, its kafka golden
// file (three topics browsed under prod/kafka) and test_containers.json, plus one dataset browsed under a container.
const topic = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:kafka,${name},PROD)`;
const COLLATIONS = 'urn:li:dataset:(urn:li:dataPlatform:mysql,information_schema.COLLATIONS,PROD)';

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  await ingestSnapshots(mds);
  for (const file of ['kafka_without_schemas_mces_golden.json', 'test_containers.json']) await ingestGolden(mds, file);
  const path = [
    { id: 'prod' },
    { id: 'urn:li:container:DATABASE', urn: 'urn:li:container:DATABASE' },
    { id: 'urn:li:container:SCHEMA', urn: 'urn:li:container:SCHEMA' },
  ];
  const proposal = {
    entityType: 'dataset',
    entityUrn: COLLATIONS,
    aspectName: 'browsePathsV2',
    changeType: 'UPSERT',
    aspect: { contentType: 'application/json', value: JSON.stringify({ path }) },
  };
  expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);
});
afterAll(() => mds?.close());

const data = async (query: string, variables?: Record<string, unknown>) => {
  const result = await mds.graphql(query, variables);
  expect(graphqlError(result)).toBeUndefined();
  return result.body.data;
};
const BROWSE = `query ($input: BrowseV2Input!) { browseV2(input: $input) { start count total groups { name count hasSubGroups entity { urn ... on Container { properties { name } } } } metadata { path totalNumEntities } } }`;

describe('browseV2', () => {
  it('answers the folders one level down with the entities under each, from the root', async () => {
    const { browseV2 } = await data(BROWSE, { input: { types: ['DATASET'], path: [] } });
    expect(browseV2).toEqual({
      start: 0,
      count: 1,
      total: 1,
      groups: [{ name: 'prod', count: 4, hasSubGroups: true, entity: null }],
      metadata: { path: [], totalNumEntities: expect.any(Number) },
    });
  });

  it('goes down a path, resolving the folders that are entities', async () => {
    const { browseV2 } = await data(BROWSE, { input: { types: ['DATASET'], path: ['prod'] } });
    expect(browseV2.groups).toEqual([
      { name: 'kafka', count: 3, hasSubGroups: false, entity: null },
      {
        name: 'urn:li:container:DATABASE',
        count: 1,
        hasSubGroups: true,
        entity: { urn: 'urn:li:container:DATABASE', properties: { name: 'root_db' } },
      },
    ]);
    expect(browseV2.metadata).toEqual({ path: ['prod'], totalNumEntities: 4 });
  });

  it('narrows by query and pages the groups', async () => {
    const narrowed = await data(BROWSE, { input: { types: ['DATASET'], path: ['prod'], query: 'key_value' } });
    expect(narrowed.browseV2.groups).toEqual([{ name: 'kafka', count: 1, hasSubGroups: false, entity: null }]);
    const paged = await data(BROWSE, { input: { types: ['DATASET'], path: ['prod'], start: 1, count: 1 } });
    expect(paged.browseV2).toMatchObject({ start: 1, count: 1, total: 2, groups: [{ name: 'urn:li:container:DATABASE' }] });
  });
});

describe('search and autoCompleteForMultiple', () => {
  it('search answers as searchAcrossEntities over the one type it names', async () => {
    const query = (field: string, typing: string) =>
      `{ ${field}(input: { ${typing}, query: "topic", start: 0, count: 10 }) { total searchResults { entity { urn type } } } }`;
    const one = await data(query('search', 'type: DATASET'));
    const across = await data(query('searchAcrossEntities', 'types: [DATASET]'));
    expect(one.search).toEqual(across.searchAcrossEntities);
    expect(one.search.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort()).toEqual([
      topic('key_topic'),
      topic('key_value_topic'),
      topic('value_topic'),
    ]);
  });

  it('suggests names per type, with their entities', async () => {
    const { autoCompleteForMultiple } =
      await data(`{ autoCompleteForMultiple(input: { types: [DATASET, DASHBOARD], query: "SampleHive", limit: 5 }) {
      query suggestions { type suggestions entities { urn } } } }`);
    expect(autoCompleteForMultiple).toEqual({
      query: 'SampleHive',
      suggestions: [
        {
          type: 'DATASET',
          suggestions: ['SampleHiveDataset'],
          entities: [{ urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)' }],
        },
      ],
    });
  });
});
