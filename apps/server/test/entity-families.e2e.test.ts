import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestGolden } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Issue 31's entity families whose data includes time series, on a real server over DataHub's cypress sample
// (packages/entities/test/fixtures/datahub/cypress_data.json, source in SOURCES.md beside it).
const TRAINING_RUN = 'urn:li:dataProcessInstance:simple_training_run';
const AIRFLOW_RUN = 'urn:li:dataProcessInstance:c39d6e424c70a1b3e8982535c68b5b5888';

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  await ingestGolden(mds, 'cypress_data.json');
});
afterAll(() => mds?.close());

const STATE = `query ($urn: String!, $start: Long, $end: Long, $limit: Int) { dataProcessInstance(urn: $urn) {
  state(startTimeMillis: $start, endTimeMillis: $end, limit: $limit) {
    timestampMillis status attempt durationMillis result { resultType nativeResultType } } } }`;

describe('DataProcessInstance.state: its dataProcessInstanceRunEvent points, as DataHub’s run event mapper gives them', () => {
  it('answers each run’s events from the time-series store', async () => {
    const training = await mds.graphql(STATE, { urn: TRAINING_RUN });
    expect(graphqlError(training)).toBeUndefined();
    expect(training.body.data.dataProcessInstance.state).toEqual([
      {
        timestampMillis: 1628580001000,
        status: 'COMPLETE',
        attempt: null,
        durationMillis: 1000,
        result: { resultType: 'FAILURE', nativeResultType: 'mlflow' },
      },
    ]);
    const airflow = await mds.graphql(STATE, { urn: AIRFLOW_RUN });
    expect(airflow.body.data.dataProcessInstance.state).toEqual([
      {
        timestampMillis: 1648640109761,
        status: 'COMPLETE',
        attempt: null,
        durationMillis: null,
        result: { resultType: 'FAILURE', nativeResultType: 'failed' },
      },
    ]);
  });

  it('keeps to the time window asked for', async () => {
    const before = await mds.graphql(STATE, { urn: TRAINING_RUN, end: 1628580000999 });
    expect(before.body.data.dataProcessInstance.state).toEqual([]);
    const within = await mds.graphql(STATE, { urn: TRAINING_RUN, start: 1628580001000, end: 1628580001000, limit: 1 });
    expect(within.body.data.dataProcessInstance.state.map((e: { timestampMillis: number }) => e.timestampMillis)).toEqual([1628580001000]);
  });
});
