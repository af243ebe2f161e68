import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { Actor } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's cypress sample (cypress_data.json): a dataset with an assertion on it.
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleCypressHdfsAssertionDataset,PROD)';
const ASSERTION = 'urn:li:assertion:358c683782c93c2fc2bd4bdd4fdb0154';
const editor: Actor = { urn: 'urn:li:corpuser:editor', privileges: new Set([Privilege.EDIT_ENTITY_DATA_CONTRACT]) };
const viewer: Actor = { urn: 'urn:li:corpuser:viewer', privileges: new Set([Privilege.VIEW_ENTITY_PAGE]) };
const as = (actor: Actor) => ({ context: { actor, requestId: `${actor.urn}-${Math.random()}` } });

// The UI's documents (contract.graphql), with the fields of dataContractDetails mds answers from this package.
const DETAILS =
  'urn type properties { entityUrn freshness { assertion { urn } } schema { assertion { urn } } dataQuality { assertion { urn } } } status { state }';
const UPSERT = `mutation upsertDataContract($input: UpsertDataContractInput!) { upsertDataContract(input: $input) { ${DETAILS} } }`;
const GET = `query getDatasetContract($urn: String!) { dataset(urn: $urn) { contract { ${DETAILS} } } }`;
// The variables the UI's contract builder sends (variables.json).
const UI_INPUT = { entityUrn: DATASET, freshness: [{ assertionUrn: ASSERTION }], schema: [], dataQuality: [] };

const setup = () =>
  goldenGraphql(databases, ['cypress_data.json'], {
    keep: (urn, aspect) => (urn === DATASET || urn === ASSERTION) && !['assertionRunEvent', 'operation', 'datasetProfile'].includes(aspect),
  });

describe("data contracts, as DataHub's UpsertDataContractResolver writes and EntityDataContractResolver reads them", () => {
  it('upsertDataContract writes dataContractProperties and an ACTIVE dataContractStatus; the dataset answers it as its contract', async () => {
    const { run, service } = await setup();
    expect((await run(GET, { urn: DATASET }, as(editor))).data).toEqual({ dataset: { contract: null } });
    const created = await run(UPSERT, { input: UI_INPUT }, as(editor));
    expect(created.errors).toBeUndefined();
    const urn = created.data!.upsertDataContract.urn as string;
    expect(urn).toMatch(/^urn:li:dataContract:[0-9a-f-]{36}$/);
    const answer = {
      urn,
      type: 'DATA_CONTRACT',
      properties: { entityUrn: DATASET, freshness: [{ assertion: { urn: ASSERTION } }], schema: [], dataQuality: [] },
      status: { state: 'ACTIVE' },
    };
    expect(created.data!.upsertDataContract).toEqual(answer);
    const stored = (
      await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], ['dataContractProperties', 'dataContractStatus'])
    ).get(urn);
    expect(stored?.get('dataContractProperties')?.value).toEqual({
      entity: DATASET,
      freshness: [{ assertion: ASSERTION }],
      schema: [],
      dataQuality: [],
    });
    expect(stored?.get('dataContractStatus')?.value).toEqual({ state: 'ACTIVE' });
    expect((await run(GET, { urn: DATASET }, as(editor))).data).toEqual({ dataset: { contract: answer } });

    // A second upsert replaces the dataset's contract in place, whatever id it names.
    const again = await run(
      UPSERT,
      { input: { entityUrn: DATASET, id: 'other', dataQuality: [{ assertionUrn: ASSERTION }], state: 'PENDING' } },
      as(editor),
    );
    expect(again.data!.upsertDataContract).toEqual({
      urn,
      type: 'DATA_CONTRACT',
      properties: { entityUrn: DATASET, freshness: null, schema: null, dataQuality: [{ assertion: { urn: ASSERTION } }] },
      status: { state: 'PENDING' },
    });
  });

  it('refuses an actor without EDIT_ENTITY_DATA_CONTRACT, and an asset or assertion not stored; nothing is written', async () => {
    const { run } = await setup();
    const errors = async (input: unknown, actor: Actor) =>
      (await run(UPSERT, { input }, as(actor))).errors?.map((e) => [e.message, e.extensions?.code]);
    expect(await errors(UI_INPUT, viewer)).toEqual([
      ['Unauthorized to perform this action. Please contact your DataHub administrator.', 403],
    ]);
    const missing = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,missing,PROD)';
    expect(await errors({ ...UI_INPUT, entityUrn: missing }, editor)).toEqual([
      [`Provided entity with urn ${missing} does not exist!`, 400],
    ]);
    expect(await errors({ ...UI_INPUT, schema: [{ assertionUrn: 'urn:li:assertion:missing' }] }, editor)).toEqual([
      ['Provided assertion with urn urn:li:assertion:missing does not exist!', 400],
    ]);
    expect((await run(GET, { urn: DATASET }, as(editor))).data).toEqual({ dataset: { contract: null } });
  });
});
