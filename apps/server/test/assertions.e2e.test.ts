import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestGolden } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';

// Assertions and their runs on a real mds with its time-series store: DataHub's cypress sample (cypress_data.json,
// source in packages/entities/test/fixtures/datahub/SOURCES.md) holds a Great Expectations assertion and one run of
// it; results reported through reportAssertionResult (DataHub's ReportAssertionResultResolver) are read back by the
// UI's own documents (assertion.graphql).
const CHECKED = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleCypressHdfsAssertionDataset,PROD)';
const CHECK = 'urn:li:assertion:358c683782c93c2fc2bd4bdd4fdb0154';
const REPORT = `mutation report($urn: String!, $result: AssertionResultInput!) { reportAssertionResult(urn: $urn, result: $result) }`;

const ui = readUiDocuments();
const uiDocument = (name: string) => print(ui.operations.find((op) => op.name === name)!.document);
// The UI's getAssertionRuns / getAssertionWithRunEvents, less the fragments of other pages that do not validate yet
// (platformFields, globalTagsFields: remaining-operations.txt); the fields of assertionDetails and
// assertionRunEventDetails are the UI's.
const RUNS = `query getAssertionRuns($assertionUrn: String!, $startTime: Long, $endTime: Long, $limit: Int) {
  assertion(urn: $assertionUrn) {
    urn type platform { urn } info { type description datasetAssertion { datasetUrn scope aggregation operator fields { urn path } nativeType } }
    actions { onSuccess { type } onFailure { type } }
    runEvents(status: COMPLETE, startTimeMillis: $startTime, endTimeMillis: $endTime, limit: $limit) {
      total failed succeeded
      runEvents {
        timestampMillis lastObservedMillis assertionUrn status runId runtimeContext { key value }
        result { type actualAggValue rowCount missingCount unexpectedCount externalUrl nativeResults { key value } error { type properties { key value } } }
      }
    }
  }
}`;
const WITH_RUN = RUNS.replace(
  'getAssertionRuns($assertionUrn: String!, $startTime: Long, $endTime: Long, $limit: Int)',
  'getAssertionWithRunEvents($assertionUrn: String!)',
).replace('startTimeMillis: $startTime, endTimeMillis: $endTime, limit: $limit', 'limit: 1');

let mds: Mds;
let editor: string;
let reader: string;
beforeAll(async () => {
  mds = await startMds();
  await ingestGolden(mds, 'cypress_data.json');
  editor = await mds.tokenFor('urn:li:corpuser:eddie', 'urn:li:dataHubRole:Editor');
  reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

describe('assertion runs through the time-series store', () => {
  it("the UI's getAssertionRuns answers the sample's run of the assertion", async () => {
    const res = await mds.graphql(RUNS, { assertionUrn: CHECK });
    expect(res.body.errors).toBeUndefined();
    const { assertion } = res.body.data;
    expect(assertion.info.datasetAssertion).toMatchObject({ datasetUrn: CHECKED, scope: 'DATASET_COLUMN', operator: 'EQUAL_TO' });
    expect(assertion.runEvents).toMatchObject({ total: 1, succeeded: 1, failed: 0 });
    expect(assertion.runEvents.runEvents[0]).toMatchObject({
      timestampMillis: 1675155843000,
      assertionUrn: CHECK,
      status: 'COMPLETE',
      runId: '2021-12-28T12:00:00Z',
      result: { type: 'SUCCESS', nativeResults: [] },
    });
  });

  it('reportAssertionResult writes a completed run the UI reads back as the latest; a Reader is refused', async () => {
    const refused = await mds.graphql(REPORT, { urn: CHECK, result: { type: 'FAILURE', timestampMillis: 1700000000000 } }, reader);
    expect(graphqlError(refused)).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
    const result = {
      type: 'ERROR',
      timestampMillis: 1700000000000,
      properties: [{ key: 'rows', value: '12' }],
      error: { type: 'SOURCE_QUERY_FAILED', message: 'timeout' },
    };
    const reported = await mds.graphql(REPORT, { urn: CHECK, result }, editor);
    expect(reported.body).toEqual({ data: { reportAssertionResult: true } });

    const res = await mds.graphql(WITH_RUN, { assertionUrn: CHECK });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.assertion.runEvents).toMatchObject({ total: 1, succeeded: 0, failed: 0 });
    expect(res.body.data.assertion.runEvents.runEvents[0]).toMatchObject({
      timestampMillis: 1700000000000,
      runId: '1700000000000',
      assertionUrn: CHECK,
      status: 'COMPLETE',
      // DataHub's mapper shows no error of a result; the properties are its nativeResults.
      result: { type: 'ERROR', nativeResults: [{ key: 'rows', value: '12' }], error: null },
    });
    // The point as stored: DataHub's AssertionRunEvent, the error's message under `message`.
    const all = await mds.graphql(`{ assertion(urn: "${CHECK}") { runEvents { total errored succeeded runEvents { asserteeUrn } } } }`);
    expect(all.body.data.assertion.runEvents).toMatchObject({
      total: 2,
      errored: 1,
      succeeded: 1,
      runEvents: [{ asserteeUrn: CHECKED }, { asserteeUrn: CHECKED }],
    });
  });

  it("the dataset's health fails while an assertion's latest run did not succeed", async () => {
    const res = await mds.graphql(`{ dataset(urn: "${CHECKED}") { health { type status message causes } } }`);
    expect(res.body.data.dataset.health).toContainEqual({
      type: 'ASSERTIONS',
      status: 'FAIL',
      message: '1 of 1 assertions are failing',
      causes: [CHECK],
    });
  });

  it('deleteAssertion (the UI document) removes the assertion and its runs', async () => {
    const res = await mds.graphql(uiDocument('deleteAssertion'), { urn: CHECK }, editor);
    expect(res.body).toEqual({ data: { deleteAssertion: true } });
    const gone = await mds.graphql(RUNS, { assertionUrn: CHECK });
    expect(gone.body).toEqual({ data: { assertion: null } });
    const listed = await mds.graphql(`{ dataset(urn: "${CHECKED}") { assertions { total } health { type } } }`);
    expect(listed.body.data.dataset).toEqual({ assertions: { total: 0 }, health: [{ type: 'INCIDENTS' }] });
  });
});
