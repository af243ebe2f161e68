import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's cypress sample (cypress_data.json): an Airflow task run and an MLflow training run, and the model it trained.
const AIRFLOW_RUN = 'urn:li:dataProcessInstance:c39d6e424c70a1b3e8982535c68b5b5888';
const TRAINING_RUN = 'urn:li:dataProcessInstance:simple_training_run';
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,sample_ml_model,PROD)';
// Run events are time-series points: the server's test reads them (apps/server/test/entity-families.e2e.test.ts).
const keep = (urn: string, aspect: string) =>
  aspect !== 'dataProcessInstanceRunEvent' && /^urn:li:(dataProcessInstance|ml\w+|container):/.test(urn);

// The fields of the UI's dataProcessInstanceFields (dataProcessInstance.graphql) that mds declares so far.
const GET_RUN = `query getDataProcessInstance($urn: String!) {
  dataProcessInstance(urn: $urn) {
    urn type exists name externalUrl
    created { time actor }
    properties { name externalUrl created { time actor } customProperties { key value } }
    mlTrainingRunProperties { id outputUrls hyperParams { name value } trainingMetrics { name value } }
    platform { urn name }
    subTypes { typeNames }
    container { urn }
    parentTemplate { urn type }
  }
}`;

describe("DataProcessInstance, as DataHub's DataProcessInstanceMapper gives it", () => {
  it('a training run: its properties, training run properties and container', async () => {
    const { run } = await goldenGraphql(databases, ['cypress_data.json'], { keep });
    const { data, errors } = await run(GET_RUN, { urn: TRAINING_RUN });
    expect(errors).toBeUndefined();
    expect(data!.dataProcessInstance).toEqual({
      urn: TRAINING_RUN,
      type: 'DATA_PROCESS_INSTANCE',
      exists: true,
      name: 'Simple Training Run',
      externalUrl: null,
      created: { time: 1628580000000, actor: 'urn:li:corpuser:datahub' },
      properties: {
        name: 'Simple Training Run',
        externalUrl: null,
        created: { time: 1628580000000, actor: 'urn:li:corpuser:datahub' },
        customProperties: [{ key: 'team', value: 'forecasting' }],
      },
      mlTrainingRunProperties: {
        id: 'simple_training_run',
        outputUrls: ['s3://my-bucket/output'],
        hyperParams: [{ name: 'learning_rate', value: '0.01' }],
        trainingMetrics: [{ name: 'accuracy', value: '0.9' }],
      },
      platform: null,
      subTypes: null,
      container: { urn: 'urn:li:container:airline_forecast_experiment' },
      parentTemplate: null,
    });
  });

  it('an Airflow task run names the job it ran (parentTemplate); the model a run trained points to it (TrainedBy)', async () => {
    const { run } = await goldenGraphql(databases, ['cypress_data.json'], { keep });
    const airflow = await run(GET_RUN, { urn: AIRFLOW_RUN });
    expect(airflow.errors).toBeUndefined();
    expect(airflow.data!.dataProcessInstance).toMatchObject({
      parentTemplate: { urn: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,cypress_dag_abc,PROD),cypress_task_123)', type: 'DATA_JOB' },
    });
    const model = await run(
      `query ($urn: String!) { mlModel(urn: $urn) {
        trainedBy: relationships(input: { types: ["TrainedBy"], direction: OUTGOING, start: 0, count: 100 }) {
          total relationships { entity { ... on DataProcessInstance { urn name } } }
        } } }`,
      { urn: MODEL },
    );
    expect(model).toEqual({
      data: { mlModel: { trainedBy: { total: 1, relationships: [{ entity: { urn: TRAINING_RUN, name: 'Simple Training Run' } }] } } },
    });
  });

  it('answers null for an absent run and a 400 for a malformed limit', async () => {
    const { run } = await goldenGraphql(databases, ['cypress_data.json'], { keep });
    expect(await run(`{ dataProcessInstance(urn: "urn:li:dataProcessInstance:none") { urn } }`)).toEqual({
      data: { dataProcessInstance: null },
    });
    const bad = await run(`{ dataProcessInstance(urn: "${TRAINING_RUN}") { state(limit: 0) { timestampMillis } } }`);
    expect(bad.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([["'limit' must be a positive integer", 400]]);
  });
});
