import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// updateDataset, updateDashboard, updateChart (entities-api §10): each given part replaces one aspect whole.
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const DASHBOARD = 'urn:li:dashboard:(looker,baz)';
const CHART = 'urn:li:chart:(looker,baz1)';
const enc = encodeURIComponent;

let mds: Mds;
let reader: string;
beforeAll(async () => {
  mds = await startMds();
  await ingestSnapshots(mds);
  reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

describe('updateDataset', () => {
  it('replaces each given aspect whole, and answers the dataset as stored', async () => {
    const input = {
      editableProperties: { description: 'Edited', name: 'Nice name' },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy' } }] },
      ownership: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATA_STEWARD' }] },
      deprecation: { deprecated: true, note: 'Use the new one', decommissionTime: 1700000000000 },
      institutionalMemory: { elements: [{ url: 'https://wiki/x', description: 'Wiki', author: 'urn:li:corpuser:jdoe', createdAt: 5 }] },
      editableSchemaMetadata: {
        editableSchemaFieldInfo: [
          { fieldPath: 'field_foo', description: 'Foo', globalTags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy' } }] } },
        ],
      },
    };
    const result = await mds.graphql(
      `mutation ($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) {
        urn editableProperties { description name } tags { tags { tag { urn } } }
        ownership { owners { owner { ... on CorpUser { urn } } type ownershipType { urn } source { type } } }
        deprecation { deprecated note decommissionTime actor } institutionalMemory { elements { url label created { time actor } } }
        editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description tags { tags { tag { urn } } } } } } }`,
      { urn: HIVE, input },
    );
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.updateDataset).toEqual({
      urn: HIVE,
      editableProperties: { description: 'Edited', name: 'Nice name' },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
      ownership: {
        owners: [
          {
            owner: { urn: 'urn:li:corpuser:jdoe' },
            type: 'DATA_STEWARD',
            ownershipType: { urn: 'urn:li:ownershipType:__system__data_steward' },
            source: { type: 'SERVICE' },
          },
        ],
      },
      deprecation: { deprecated: true, note: 'Use the new one', decommissionTime: 1700000000000, actor: 'urn:li:corpuser:datahub' },
      institutionalMemory: { elements: [{ url: 'https://wiki/x', label: 'Wiki', created: { time: 5, actor: 'urn:li:corpuser:jdoe' } }] },
      editableSchemaMetadata: {
        editableSchemaFieldInfo: [{ fieldPath: 'field_foo', description: 'Foo', tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] } }],
      },
    });
    // The same values over Rest.li: one new version of each aspect.
    const stored = await mds.clientFor(mds.rootToken).get(`/aspects/${enc(HIVE)}?aspect=ownership&version=0`);
    expect(stored.body.aspect['com.linkedin.common.Ownership'].owners).toEqual([
      {
        owner: 'urn:li:corpuser:jdoe',
        type: 'DATA_STEWARD',
        typeUrn: 'urn:li:ownershipType:__system__data_steward',
        source: { type: 'SERVICE' },
      },
    ]);
  });

  it('answers D3 for an absent dataset and refuses a Reader, writing nothing', async () => {
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD)';
    const mutation = 'mutation ($urn: String!) { updateDataset(urn: $urn, input: { editableProperties: { description: "x" } }) { urn } }';
    expect(graphqlError(await mds.graphql(mutation, { urn: absent }))).toEqual({
      message: `Failed to update ${absent}. ${absent} does not exist.`,
      code: 400,
    });
    expect(graphqlError(await mds.graphql(mutation, { urn: HIVE }, reader))?.code).toBe(403);
    const { body } = await mds.graphql(
      `{ dataset(urn: "${HIVE}") { editableProperties { description } } exists: entityExists(urn: "${absent}") }`,
    );
    expect(body.data).toEqual({ dataset: { editableProperties: { description: 'Edited' } }, exists: false });
  });
});

describe('updateDashboard and updateChart', () => {
  it('replace the editable description and tags of a dashboard and of a chart', async () => {
    const { body } = await mds.graphql(`mutation {
      dashboard: updateDashboard(urn: "${DASHBOARD}", input: { editableProperties: { description: "Board" }, tags: { tags: [] } }) { urn editableProperties { description } tags { tags { tag { urn } } } }
      chart: updateChart(urn: "${CHART}", input: { editableProperties: { description: "Chart" } }) { urn editableProperties { description } } }`);
    expect(body.data).toEqual({
      dashboard: { urn: DASHBOARD, editableProperties: { description: 'Board' }, tags: { tags: [] } },
      chart: { urn: CHART, editableProperties: { description: 'Chart' } },
    });
  });

  it('answers D3 for a dataset urn given to updateChart', async () => {
    expect(
      graphqlError(
        await mds.graphql(`mutation { updateChart(urn: "${HIVE}", input: { editableProperties: { description: "x" } }) { urn } }`),
      ),
    ).toEqual({
      message: `Failed to update ${HIVE}. ${HIVE} does not exist.`,
      code: 400,
    });
  });
});
