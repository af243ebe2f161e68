import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { goldenFile, graphqlError, ingestGolden, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// A dataset's time-series fields over GraphQL (entities-api §9.2): datasetProfiles from DataHub's demo-profiles.json
// (source in packages/entities/test/fixtures/datahub/SOURCES.md), operations ingested as DataHub's emitter sends them.
const HDFS = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)';
const profilesOf = (urn: string) =>
  (JSON.parse(readFileSync(goldenFile('demo-profiles.json'), 'utf8')) as { entityUrn: string; aspect: { value: string } }[])
    .filter((item) => item.entityUrn === urn)
    .map(
      (item) =>
        JSON.parse(item.aspect.value) as {
          timestampMillis: number;
          rowCount: number;
          columnCount: number;
          fieldProfiles: { fieldPath: string }[];
        },
    );

const PROFILES = `query ($urn: String!, $limit: Int, $start: Long) { dataset(urn: $urn) {
  datasetProfiles(limit: $limit, startTimeMillis: $start) { timestampMillis rowCount columnCount fieldProfiles { fieldPath nullCount } } } }`;

let mds: Mds;
let nobody: string;
beforeAll(async () => {
  mds = await startMds();
  // Its refusals are of callers lacking a privilege: DataHub's default policies for all users are deactivated.
  await mds.withoutAllUsersPolicies();
  await ingestSnapshots(mds);
  await ingestGolden(mds, 'demo-profiles.json');
  nobody = await mds.tokenFor('urn:li:corpuser:nobody', null);
  const operation = (time: number, updated: number, operationType: string) => ({
    entityType: 'dataset',
    entityUrn: HDFS,
    aspectName: 'operation',
    changeType: 'UPSERT',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({
        timestampMillis: time,
        lastUpdatedTimestamp: updated,
        operationType,
        actor: 'urn:li:corpuser:etl',
        numAffectedRows: 7,
        customProperties: { job: 'nightly' },
      }),
    },
  });
  const res = await mds.post('/aspects?action=ingestProposalBatch', {
    proposals: [operation(1000, 900, 'INSERT'), operation(2000, 500, 'DELETE'), operation(3000, 3000, 'UNKNOWN')],
  });
  expect(res.status).toBe(200);
});
afterAll(() => mds?.close());

describe('datasetProfiles', () => {
  it('answers the ingested profiles newest first, field by field', async () => {
    const expected = profilesOf(HDFS).sort((a, b) => b.timestampMillis - a.timestampMillis);
    const result = await mds.graphql(PROFILES, { urn: HDFS });
    expect(graphqlError(result)).toBeUndefined();
    const profiles = result.body.data.dataset.datasetProfiles;
    expect(profiles.map((p: { timestampMillis: number }) => p.timestampMillis)).toEqual(expected.map((p) => p.timestampMillis));
    expect(profiles[0]).toMatchObject({ rowCount: expected[0]!.rowCount, columnCount: expected[0]!.columnCount });
    expect(profiles[0].fieldProfiles.map((f: { fieldPath: string }) => f.fieldPath)).toEqual(
      expected[0]!.fieldProfiles.map((f) => f.fieldPath),
    );
  });

  it('honours limit and the time range', async () => {
    const expected = profilesOf(HDFS).sort((a, b) => b.timestampMillis - a.timestampMillis);
    const limited = (await mds.graphql(PROFILES, { urn: HDFS, limit: 2 })).body.data.dataset.datasetProfiles;
    expect(limited.map((p: { timestampMillis: number }) => p.timestampMillis)).toEqual(expected.slice(0, 2).map((p) => p.timestampMillis));
    const recent = (await mds.graphql(PROFILES, { urn: HDFS, start: expected[1]!.timestampMillis })).body.data.dataset.datasetProfiles;
    expect(recent).toHaveLength(2);
  });

  it('answers an empty list to a caller without VIEW_DATASET_PROFILE', async () => {
    const result = await mds.graphql(PROFILES, { urn: HDFS }, nobody);
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dataset.datasetProfiles).toEqual([]);
  });
});

describe('operations', () => {
  it('answers operations by lastUpdatedTimestamp, newest first (a type outside the schema is refused at ingestion, 422)', async () => {
    const result = await mds.graphql(
      `{ dataset(urn: "${HDFS}") { operations { timestampMillis lastUpdatedTimestamp operationType actor numAffectedRows customProperties { key value } } } }`,
    );
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dataset.operations).toEqual([
      {
        timestampMillis: 3000,
        lastUpdatedTimestamp: 3000,
        operationType: 'UNKNOWN',
        actor: 'urn:li:corpuser:etl',
        numAffectedRows: 7,
        customProperties: [{ key: 'job', value: 'nightly' }],
      },
      {
        timestampMillis: 1000,
        lastUpdatedTimestamp: 900,
        operationType: 'INSERT',
        actor: 'urn:li:corpuser:etl',
        numAffectedRows: 7,
        customProperties: [{ key: 'job', value: 'nightly' }],
      },
      {
        timestampMillis: 2000,
        lastUpdatedTimestamp: 500,
        operationType: 'DELETE',
        actor: 'urn:li:corpuser:etl',
        numAffectedRows: 7,
        customProperties: [{ key: 'job', value: 'nightly' }],
      },
    ]);
  });

  it('filters on a field by its condition (EQUAL, START_WITH as the UI asks the latest full-table profile, ranges…), refusing others with a 400', async () => {
    const query = (condition: string, value = 'DELETE', field = 'operationType') =>
      `{ dataset(urn: "${HDFS}") { operations(filter: { and: [], or: [{ and: [{ field: "${field}", values: ["${value}"], condition: ${condition} }] }] }) { timestampMillis } } }`;
    const times = async (...args: Parameters<typeof query>) =>
      ((await mds.graphql(query(...args))).body.data.dataset.operations as { timestampMillis: number }[]).map((o) => o.timestampMillis);
    expect(await times('EQUAL')).toEqual([2000]);
    expect(await times('START_WITH', 'DEL')).toEqual([2000]);
    expect(await times('CONTAIN', 'NSER')).toEqual([1000]);
    expect(await times('GREATER_THAN', '600', 'lastUpdatedTimestamp')).toEqual([3000, 1000]);
    expect(await times('EXISTS', '', 'numAffectedRows')).toEqual([3000, 1000, 2000]);
    expect(await times('EXISTS', '', 'partitionSpec')).toEqual([]);
    expect(graphqlError(await mds.graphql(query('DESCENDANTS_INCL')))).toEqual({
      message: 'Unsupported filter condition DESCENDANTS_INCL',
      code: 400,
    });
  });

  it("filters with DataHub's FilterInput.and, ANDed with the groups of `or`", async () => {
    const operations = async (filter: string) =>
      (await mds.graphql(`{ dataset(urn: "${HDFS}") { operations(filter: ${filter}) { timestampMillis } } }`)).body.data.dataset.operations;
    expect(await operations('{ and: [{ field: "operationType", values: ["DELETE"] }] }')).toEqual([{ timestampMillis: 2000 }]);
    expect(
      await operations('{ and: [{ field: "operationType", values: ["DELETE"] }, { field: "actor", values: ["urn:li:corpuser:nobody"] }] }'),
    ).toEqual([]);
    expect(
      await operations(
        '{ and: [{ field: "operationType", values: ["DELETE"] }], or: [{ and: [{ field: "actor", values: ["urn:li:corpuser:etl"] }] }] }',
      ),
    ).toEqual([{ timestampMillis: 2000 }]);
  });
});
