import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';

// The Runs tabs of a dataset and a data job on a real mds (DataHub's EntityRunsResolver, DataJobRunsResolver): runs
// are dataProcessInstance entities pointing at the dataset through their inputs (Consumes) or outputs (Produces),
// and at the job through their parent template (InstanceOf); newest created first, one page.
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,runs_sample,PROD)';
const JOB = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,runs_dag,PROD),load)';
const run = (id: string) => `urn:li:dataProcessInstance:${id}`;

const ui = readUiDocuments();
const uiDocument = (name: string) => print(ui.operations.find((op) => op.name === name)!.document);

const proposal = (entityType: string, entityUrn: string, aspectName: string, value: object) => ({
  entityType,
  entityUrn,
  aspectName,
  changeType: 'UPSERT',
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});
const instance = (id: string, created: number, links: { inputs?: string[]; outputs?: string[] }) => [
  proposal('dataProcessInstance', run(id), 'dataProcessInstanceProperties', {
    name: id,
    created: { time: created, actor: 'urn:li:corpuser:airflow' },
    customProperties: {},
  }),
  proposal('dataProcessInstance', run(id), 'dataProcessInstanceRelationships', { parentTemplate: JOB, upstreamInstances: [] }),
  ...(links.inputs ? [proposal('dataProcessInstance', run(id), 'dataProcessInstanceInput', { inputs: links.inputs })] : []),
  ...(links.outputs ? [proposal('dataProcessInstance', run(id), 'dataProcessInstanceOutput', { outputs: links.outputs })] : []),
];

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  const proposals = [
    proposal('dataset', DATASET, 'datasetProperties', { name: 'runs_sample', customProperties: {} }),
    proposal('dataJob', JOB, 'dataJobInfo', { name: 'load', type: { string: 'COMMAND' }, customProperties: {} }),
    ...instance('first', 1000, { outputs: [DATASET] }),
    ...instance('second', 3000, { outputs: [DATASET] }),
    ...instance('third', 2000, { inputs: [DATASET] }),
    ...instance('gone', 4000, { outputs: [DATASET] }),
    proposal('dataProcessInstance', run('gone'), 'status', { removed: true }),
    proposal('dataProcessInstance', run('second'), 'dataProcessInstanceRunEvent', {
      timestampMillis: 3500,
      status: 'COMPLETE',
      attempt: 1,
      result: { type: 'SUCCESS', nativeResultType: 'airflow' },
    }),
  ];
  const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
  expect(res.status).toBe(200);
});
afterAll(() => mds?.close());

describe('Dataset.runs (EntityRunsResolver)', () => {
  it('getDatasetRuns, OUTGOING: the runs that wrote the dataset, newest created first, with their last run event', async () => {
    const result = await mds.graphql(uiDocument('getDatasetRuns'), { urn: DATASET, start: 0, count: 20, direction: 'OUTGOING' });
    expect(graphqlError(result)).toBeUndefined();
    const runs = result.body.data.dataset.runs;
    expect(runs).toMatchObject({ count: 20, start: 0, total: 2 });
    expect(runs.runs.map((r: { urn: string }) => r.urn)).toEqual([run('second'), run('first')]);
    expect(runs.runs[0]).toMatchObject({
      type: 'DATA_PROCESS_INSTANCE',
      name: 'second',
      created: { time: 3000, actor: 'urn:li:corpuser:airflow' },
      state: [{ status: 'COMPLETE', attempt: 1, result: { resultType: 'SUCCESS', nativeResultType: 'airflow' }, timestampMillis: 3500 }],
      outputs: { total: 1, relationships: [{ type: 'Produces', direction: 'OUTGOING', entity: { urn: DATASET } }] },
      parentTemplate: { total: 1, relationships: [{ type: 'InstanceOf', entity: { urn: JOB } }] },
    });
  });

  it('INCOMING: the runs that read it; a page past the first', async () => {
    const doc = `query ($urn: String!, $start: Int, $count: Int, $direction: RelationshipDirection!) { dataset(urn: $urn) {
      runs(start: $start, count: $count, direction: $direction) { count start total runs { urn } } } }`;
    const incoming = await mds.graphql(doc, { urn: DATASET, direction: 'INCOMING' });
    expect(incoming.body.data.dataset.runs).toEqual({ count: 20, start: 0, total: 1, runs: [{ urn: run('third') }] });
    const second = await mds.graphql(doc, { urn: DATASET, start: 1, count: 1, direction: 'OUTGOING' });
    expect(second.body.data.dataset.runs).toEqual({ count: 1, start: 1, total: 2, runs: [{ urn: run('first') }] });
    const refused = await mds.graphql(doc, { urn: DATASET, start: -1, count: 1, direction: 'OUTGOING' });
    expect(graphqlError(refused)).toMatchObject({ code: 400 });
  });
});

describe('DataJob.runs (DataJobRunsResolver)', () => {
  it('getDataJobRuns: every run of the job but the removed one, newest created first', async () => {
    const result = await mds.graphql(uiDocument('getDataJobRuns'), { urn: JOB, start: 0, count: 20 });
    expect(graphqlError(result)).toBeUndefined();
    const runs = result.body.data.dataJob.runs;
    expect(runs).toMatchObject({ count: 20, start: 0, total: 3 });
    expect(runs.runs.map((r: { urn: string }) => r.urn)).toEqual([run('second'), run('third'), run('first')]);
  });
});
