import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { actor, ds, errorOf, versionedOnly } from './edit-support';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
// DataHub's bootstrap sample (test/fixtures/datahub/bootstrap_mce.json).
const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HDFS = ds('hdfs', 'SampleHdfsDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
const EVENTS = ds('hive', 'logging_events');
const CREATED = ds('hive', 'fct_users_created');
const BACKUP = ds('s3', 'project/root/events/logging_events_bckp');
const TASK_123 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)';
const TASK_456 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_456)';
const BAZ1 = 'urn:li:chart:(looker,baz1)';
const BAZ2 = 'urn:li:chart:(looker,baz2)';
const DASHBOARD = 'urn:li:dashboard:(looker,baz)';
const ABSENT = ds('hive', 'absent');

const as = actor;
const lineageEditor = () => as('urn:li:corpuser:lena', Privilege.EDIT_LINEAGE);
const reader = () => as('urn:li:corpuser:rita');

// The UI's updateLineage (mutations.graphql), as ManageLineageModal sends it.
const UPDATE = `mutation updateLineage($input: UpdateLineageInput!) { updateLineage(input: $input) }`;
const edge = (upstreamUrn: string, downstreamUrn: string) => ({ upstreamUrn, downstreamUrn });
const change = (edgesToAdd: object[], edgesToRemove: object[] = []) => ({ input: { edgesToAdd, edgesToRemove } });
// One hop each way, in the shape of the UI's lineage documents.
const LINEAGE = `query lineageOf($urn: String!) { entity(urn: $urn) { urn ... on EntityWithRelationships {
  upstream: lineage(input: { direction: UPSTREAM, start: 0, count: 100 }) { relationships { entity { urn } isManual } }
  downstream: lineage(input: { direction: DOWNSTREAM, start: 0, count: 100 }) { relationships { entity { urn } isManual } } } } }`;
const stamp = { time: NOW, actor: 'urn:li:corpuser:lena' };
const handEdge = (destinationUrn: string, sourceUrn: string) => ({
  destinationUrn,
  sourceUrn,
  created: stamp,
  lastModified: stamp,
  properties: { source: 'UI' },
});

async function setup() {
  const api = await goldenGraphql(databases, ['bootstrap_mce.json'], { now: () => NOW, keep: versionedOnly });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  /** The urns one hop away, with whether the edge was drawn by hand. */
  const hops = async (urn: string) => {
    const read = await api.run(LINEAGE, { urn }, reader());
    expect(read.errors).toBeUndefined();
    const of = (side: { relationships: { entity: { urn: string }; isManual: boolean | null }[] }) =>
      Object.fromEntries(side.relationships.map((r) => [r.entity.urn, r.isManual ?? false]));
    return { upstream: of(read.data!.entity.upstream), downstream: of(read.data!.entity.downstream) };
  };
  return { ...api, stored, errorOf, hops };
}

describe("updateLineage, as DataHub's UpdateLineageResolver and LineageService write each edge", () => {
  it("dataset ← dataset: the UI's edge is a TRANSFORMED upstream from the UI in upstreamLineage; removing it takes it out", async () => {
    const { run, stored, hops } = await setup();
    const before = ((await stored(HIVE, 'upstreamLineage'))?.upstreams ?? []) as unknown[];
    const added = await run(UPDATE, change([edge(KAFKA, HIVE)]), lineageEditor());
    expect(added.errors).toBeUndefined();
    expect(added.data).toEqual({ updateLineage: true });
    const upstreams = (await stored(HIVE, 'upstreamLineage'))!.upstreams as unknown[];
    expect(upstreams).toEqual([
      ...before,
      { auditStamp: stamp, created: stamp, dataset: KAFKA, type: 'TRANSFORMED', properties: { source: 'UI' } },
    ]);
    expect((await hops(HIVE)).upstream[KAFKA]).toBe(true);
    expect((await hops(KAFKA)).downstream[HIVE]).toBe(true);

    // Adding it again changes nothing; removal wins over adding in one request.
    await run(UPDATE, change([edge(KAFKA, HIVE)]), lineageEditor());
    expect((await stored(HIVE, 'upstreamLineage'))!.upstreams).toHaveLength(before.length + 1);
    await run(UPDATE, change([edge(KAFKA, HIVE)], [edge(KAFKA, HIVE)]), lineageEditor());
    expect((await stored(HIVE, 'upstreamLineage'))?.upstreams ?? []).toEqual(before);
    expect((await hops(HIVE)).upstream[KAFKA]).toBeUndefined();
  });

  it('chart and dashboard inputs: new edges in inputEdges / chartEdges / datasetEdges, removed ones out of the old urn lists too', async () => {
    const { run, stored, hops } = await setup();
    expect((await hops(BAZ1)).upstream[KAFKA]).toBe(false);
    const chart = await run(UPDATE, change([edge(HIVE, BAZ1)], [edge(KAFKA, BAZ1)]), lineageEditor());
    expect(chart.errors).toBeUndefined();
    const info = (await stored(BAZ1, 'chartInfo'))!;
    expect(info.inputEdges).toEqual([handEdge(HIVE, BAZ1)]);
    expect(info.inputs).toEqual([]);
    expect(info.title).toBe('Baz Chart 1');
    expect((await hops(BAZ1)).upstream).toEqual({ [HIVE]: true });

    const dashboard = await run(UPDATE, change([edge(EVENTS, DASHBOARD), edge(BAZ1, DASHBOARD)], [edge(BAZ2, DASHBOARD)]), lineageEditor());
    expect(dashboard.errors).toBeUndefined();
    const board = (await stored(DASHBOARD, 'dashboardInfo'))!;
    // baz1 is already among the charts: it is not added twice.
    expect(board.charts).toEqual([BAZ1]);
    expect(board.chartEdges).toEqual([]);
    expect(board.datasetEdges).toEqual([handEdge(EVENTS, DASHBOARD)]);
    expect(board.datasets).toEqual([]);
    expect((await hops(DASHBOARD)).upstream).toEqual({ [BAZ1]: false, [EVENTS]: true });
  });

  it("data jobs: inputs on the job's dataJobInputOutput, and a dataset downstream of a job as the job's output", async () => {
    const { run, stored, hops } = await setup();
    const backupLineage = await stored(BACKUP, 'upstreamLineage');
    const result = await run(
      UPDATE,
      // task_123 already feeds task_456: that edge is kept once.
      change([edge(HDFS, TASK_123), edge(TASK_123, BACKUP), edge(TASK_123, TASK_456)], [edge(TASK_123, CREATED)]),
      lineageEditor(),
    );
    expect(result.errors).toBeUndefined();
    const job = (await stored(TASK_123, 'dataJobInputOutput'))!;
    expect(job.inputDatasets).toEqual([EVENTS]);
    expect(job.inputDatasetEdges).toEqual([handEdge(HDFS, TASK_123)]);
    expect(job.outputDatasets).toEqual([]);
    expect(job.outputDatasetEdges).toEqual([handEdge(BACKUP, TASK_123)]);
    expect((await stored(TASK_456, 'dataJobInputOutput'))!.inputDatajobEdges).toEqual([]);
    // Nothing is written on the dataset a job outputs to.
    expect(await stored(BACKUP, 'upstreamLineage')).toEqual(backupLineage);
    const around = await hops(TASK_123);
    expect(around.upstream).toEqual({ [EVENTS]: false, [HDFS]: true });
    expect(around.downstream[BACKUP]).toBe(true);
    expect(around.downstream[CREATED]).toBeUndefined();
    expect((await hops(BACKUP)).upstream[TASK_123]).toBe(true);
  });

  it("asks EDIT_LINEAGE or EDIT_ENTITY on both ends, and refuses bad edges with DataHub's texts before writing anything", async () => {
    const { run, stored, errorOf } = await setup();
    expect(errorOf(await run(UPDATE, change([edge(KAFKA, HIVE)]), reader()))).toEqual([
      { message: `Unauthorized to edit ${KAFKA} lineage for dataset`, code: 403 },
    ]);
    expect(
      (await run(UPDATE, change([edge(KAFKA, HIVE)], [edge(KAFKA, HIVE)]), as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY))).errors,
    ).toBeUndefined();

    const before = await stored(HIVE, 'upstreamLineage');
    const refusals: [object, string][] = [
      [change([edge(KAFKA, HIVE), edge(KAFKA, ABSENT)]), `Cannot upsert lineage as downstream urn ${ABSENT} doesn't exist`],
      [change([edge(KAFKA, HIVE), edge(ABSENT, HDFS)]), `Error: urn does not exist: ${ABSENT}`],
      [
        change([edge(KAFKA, HIVE), edge(BAZ1, HDFS)]),
        `Tried to add lineage edge with non-dataset node when we expect a dataset. Upstream urn: ${BAZ1}`,
      ],
      [
        change([edge(KAFKA, HIVE), edge(TASK_123, BAZ1)]),
        `Tried to add an upstream to a chart that isn't a chart or dataset. Upstream urn: ${TASK_123}`,
      ],
      [
        change([edge(KAFKA, HIVE), edge(BAZ1, TASK_456)]),
        `Tried to add an upstream to a dataJob that isn't a datJob or dataset. Upstream urn: ${BAZ1}`,
      ],
      [
        change([edge(KAFKA, HIVE), edge(TASK_123, DASHBOARD)]),
        `Tried to add an upstream to a dashboard that isn't a chart or dataset. Upstream urn: ${TASK_123}`,
      ],
      [change([edge(KAFKA, HIVE), edge('nope', HIVE)]), 'Invalid urn: nope'],
    ];
    for (const [variables, message] of refusals) {
      expect(errorOf(await run(UPDATE, variables as Record<string, unknown>, lineageEditor()))).toEqual([{ message, code: 400 }]);
    }
    expect(await stored(HIVE, 'upstreamLineage')).toEqual(before);
  });
});
