import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { documentId } from '../src/identity.ts';
import { REGISTRY } from '../src/index.ts';
import { apiError, embeddedPerTest } from './helpers.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)';

const proposal = (overrides: Record<string, unknown> = {}, value: unknown = { timestampMillis: 1_700_000_000_000, rowCount: 10 }) => ({
  entityType: 'dataset',
  entityUrn: URN,
  changeType: 'UPSERT',
  aspectName: 'datasetProfile',
  aspect: { contentType: 'application/json', value: typeof value === 'string' ? value : JSON.stringify(value) },
  ...overrides,
});

/** What each time-series aspect requires besides timestampMillis (DataHub validates time-series values too). */
const REQUIRED: Record<string, Record<string, unknown>> = {
  assertionRunEvent: { runId: 'r', asserteeUrn: URN, assertionUrn: 'urn:li:assertion:a', status: 'COMPLETE' },
  datahubIngestionCheckpoint: {
    pipelineName: 'p',
    platformInstanceId: 'i',
    config: '',
    state: { formatVersion: '1', serde: 'utf-8' },
    runId: 'r',
  },
  datahubIngestionRunSummary: { pipelineName: 'p', platformInstanceId: 'i', runId: 'r', runStatus: 'COMPLETED' },
  dataProcessInstanceRunEvent: { status: 'COMPLETE' },
  operation: { operationType: 'INSERT', lastUpdatedTimestamp: 1 },
};

describe('ingestion actions', () => {
  const suite = embeddedPerTest();
  /** Prepares every proposal, then writes them, as the owner of the ingestion actions does (@mds/entities). */
  const ingest = async (proposals: unknown[], action = 'ingestProposalBatch') => {
    const place = (i: number) => ({ action, path: action === 'ingestProposal' ? 'proposal' : `proposals.${i}` });
    await suite.timeseries.service.ingest.write(proposals.map((p, i) => suite.timeseries.service.ingest.prepare(p, place(i))));
  };
  const ingestOne = (one: unknown) => ingest([one], 'ingestProposal');
  const count = (index = 'dataset_datasetprofileaspect_v1') => suite.timeseries.store.countForTruncation(index, Number.MAX_SAFE_INTEGER);

  it('ingests the spec example', async () => {
    const body = JSON.parse(
      '{"proposal":{"entityType":"dataset","entityUrn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)","changeType":"UPSERT","aspectName":"datasetProfile","aspect":{"contentType":"application/json","value":"{\\"timestampMillis\\":1700000000000,\\"rowCount\\":10}"}}}',
    );
    await ingestOne(body.proposal);
    expect(await count()).toEqual({ matching: 1, total: 1 });
  });

  it('accepts every aspect of the registry, names matched case-insensitively, into lower-case indices', async () => {
    const proposals = Object.entries(REGISTRY).flatMap(([entityType, aspects]) =>
      aspects.map((aspectName) =>
        proposal(
          {
            entityType: entityType.toUpperCase(),
            entityUrn: `urn:li:${entityType}:x1`,
            aspectName: aspectName.toLowerCase(),
          },
          { timestampMillis: 1_700_000_000_000, ...REQUIRED[aspectName] },
        ),
      ),
    );
    await ingest(proposals);
    const names = (await suite.timeseries.store.indexSizes()).map((s) => s.indexName).sort();
    expect(names).toEqual(
      [
        'assertion_assertionruneventaspect_v1',
        'chart_chartusagestatisticsaspect_v1',
        'dashboard_dashboardusagestatisticsaspect_v1',
        'datajob_datahubingestioncheckpointaspect_v1',
        'datajob_datahubingestionrunsummaryaspect_v1',
        'dataprocessinstance_dataprocessinstanceruneventaspect_v1',
        'dataset_datasetprofileaspect_v1',
        'dataset_datasetusagestatisticsaspect_v1',
        'dataset_operationaspect_v1',
        'query_queryusagestatisticsaspect_v1',
      ].sort(),
    );
  });

  it('overwrites a document with the same identity, keeps documents that differ in any identity field', async () => {
    const base = { timestampMillis: 1000, eventGranularity: { unit: 'DAY', multiple: 1 } };
    const proposals = [
      proposal({}, { ...base, rowCount: 1 }),
      proposal({}, { ...base, rowCount: 2 }), // same identity: overwrites
      proposal({}, { ...base, messageId: 'm1' }),
      proposal({}, { ...base, partitionSpec: { partition: 'p1' } }),
      proposal({}, { ...base, partitionSpec: { partition: 'p2' } }),
      proposal({}, { timestampMillis: 1000 }),
      proposal({ entityUrn: `${URN}x` }, base),
      proposal({}, { ...base, timestampMillis: 1001 }),
    ];
    await ingest(proposals);
    expect(await count()).toEqual({ matching: 7, total: 7 });
  });

  it('validates values as versioned aspects are: non-finite and out-of-range numbers are a 422 naming the path', async () => {
    const refused = async (value: unknown) => {
      const { status, message } = await apiError(() => ingestOne(proposal({}, value)));
      return { status, message };
    };
    expect(await refused('{"timestampMillis": 1700000000000, "rowCount": 1e309}')).toEqual({
      status: 422,
      message:
        'Failed to validate record with class com.linkedin.dataset.DatasetProfile: \nERROR :: /rowCount :: Infinity is not a finite number',
    });
    expect(await refused('{"timestampMillis": 1, "fieldProfiles": [{"fieldPath": "a", "nullProportion": -1e400}]}')).toMatchObject({
      status: 422,
      message: expect.stringContaining('ERROR :: /fieldProfiles/0/nullProportion :: -Infinity is not a finite number'),
    });
    expect(await refused({ timestampMillis: -8_640_000_000_000_001, rowCount: 1 })).toMatchObject({
      status: 422,
      message: expect.stringContaining('ERROR :: /timestampMillis :: -8640000000000001 is outside the range of a date'),
    });
    // DataHub's PartitionSpec requires `partition`.
    expect(
      await refused({ timestampMillis: 1, partitionSpec: { timePartition: { startTimeMillis: 0, length: { unit: 'DAY', multiple: 1 } } } }),
    ).toMatchObject({
      status: 422,
      message: expect.stringContaining('ERROR :: /partitionSpec/partition :: field is required'),
    });
    expect(await refused({ timestampMillis: 1, rowCount: 'many' })).toMatchObject({ status: 422 });
    expect(await count()).toEqual({ matching: 0, total: 0 });
    await ingestOne(proposal({}, { timestampMillis: 8_640_000_000_000_000, rowCount: Number.MAX_SAFE_INTEGER }));
    expect(await count()).toEqual({ matching: 1, total: 1 });
  });

  it('refuses a deeply nested value from its text, before parsing it', async () => {
    const deep = `{"timestampMillis": 1, "x": ${'['.repeat(500_000)}${']'.repeat(500_000)}}`;
    const { status, message } = await apiError(() => ingestOne(proposal({}, deep)));
    expect({ status, message }).toEqual({
      status: 400,
      message: "Parameter 'proposal.aspect.value' of action 'ingestProposal': is nested more than 100 levels deep",
    });
  });

  it('computes the identity like DataHub: JSON texts of the identity fields, concatenated, SHA-256', () => {
    const id = documentId({
      timestampMillis: 1000,
      eventGranularity: '{"unit":"DAY","multiple":1}',
      urn: URN,
      messageId: 'm',
      partitionSpec: { partition: 'p' },
    });
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const source = `1000"{\\"unit\\":\\"DAY\\",\\"multiple\\":1}""${URN}""m"{"partition":"p"}`;
    expect(id).toBe(createHash('sha256').update(source).digest('hex'));
  });

  it('writes a batch all or nothing: one bad proposal writes none', async () => {
    const error = await apiError(ingest([proposal(), proposal({}, { rowCount: 1 })]));
    expect(error.message).toBe(
      "Parameter 'proposals.1.aspect.value' of action 'ingestProposalBatch': has no timestampMillis (every time-series aspect value needs one)",
    );
    expect(await count()).toEqual({ matching: 0, total: 0 });
  });

  it('writes 10,000 proposals at once', async () => {
    const proposals = Array.from({ length: 10_000 }, (_, i) => proposal({}, { timestampMillis: i + 1 }));
    await ingest(proposals);
    expect(await count()).toEqual({ matching: 10_000, total: 10_000 });
  });

  it('deletes one entity’s points: of one aspect, or of every one of its type, in a window', async () => {
    const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)';
    await ingest([
      proposal({}, { timestampMillis: 1, rowCount: 1 }),
      proposal({}, { timestampMillis: 2, rowCount: 1 }),
      proposal({ aspectName: 'operation' }, { timestampMillis: 3, operationType: 'INSERT', lastUpdatedTimestamp: 3 }),
      proposal({ entityUrn: other }, { timestampMillis: 4, rowCount: 1 }),
    ]);
    const remove = (request: Partial<Parameters<typeof suite.timeseries.service.ingest.deleteEntity>[0]>) =>
      suite.timeseries.service.ingest.deleteEntity({ urn: URN, entityType: 'dataset', ...request });
    expect(await remove({ aspectName: 'datasetProfile', startTimeMillis: 2 })).toBe(1);
    expect(await remove({})).toBe(2); // the other profile and the operation
    expect(await count()).toEqual({ matching: 1, total: 1 }); // the other urn's profile stays
    expect(await remove({ entityType: 'tag' })).toBe(0);
  });

  it('answers one entity’s newest point of an aspect, or nothing', async () => {
    await ingest([
      proposal({ systemMetadata: { runId: 'r2' } }, { timestampMillis: 2, rowCount: 2 }),
      proposal({}, { timestampMillis: 1, rowCount: 1 }),
    ]);
    expect(await suite.timeseries.service.ingest.latest({ urn: URN, entityType: 'dataset', aspectName: 'datasetProfile' })).toEqual({
      timestampMillis: 2,
      value: { timestampMillis: 2, rowCount: 2 },
      systemMetadata: { runId: 'r2' },
    });
    expect(await suite.timeseries.service.ingest.latest({ urn: URN, entityType: 'dataset', aspectName: 'operation' })).toBeUndefined();
    expect(await suite.timeseries.service.ingest.latest({ urn: URN, entityType: 'dataset', aspectName: 'schemaMetadata' })).toBeUndefined();
  });

  it('accepts the time-series aspects of the registry only, names matched case-insensitively', () => {
    expect(suite.timeseries.service.ingest.accepts('DATASET', 'datasetprofile')).toBe(true);
    expect(suite.timeseries.service.ingest.accepts('dataset', 'schemaMetadata')).toBe(false);
    expect(suite.timeseries.service.ingest.accepts('tag', 'datasetProfile')).toBe(false);
  });

  it.each([
    [
      'missing entityUrn',
      { proposal: { ...proposal(), entityUrn: undefined } },
      "Parameter 'proposal.entityUrn' of action 'ingestProposal': is required",
    ],
    [
      'ill-typed aspectName',
      { proposal: proposal({ aspectName: 5 }) },
      "Parameter 'proposal.aspectName' of action 'ingestProposal': must be a string",
    ],
    [
      'value not a string',
      { proposal: proposal({ aspect: { contentType: 'application/json', value: { timestampMillis: 1 } } }) },
      "Parameter 'proposal.aspect.value' of action 'ingestProposal': must be a string",
    ],
    [
      'missing aspect',
      { proposal: { ...proposal(), aspect: undefined } },
      "Parameter 'proposal.aspect' of action 'ingestProposal': is required",
    ],
    [
      'unknown entity type',
      { proposal: proposal({ entityType: 'tag' }) },
      "Parameter 'proposal.entityType' of action 'ingestProposal': unknown entity type 'tag' (entity types with time-series aspects: dataset, dataJob, dataProcessInstance, chart, dashboard, assertion, query)",
    ],
    [
      'not a time-series aspect',
      { proposal: proposal({ aspectName: 'schemaMetadata' }) },
      "Parameter 'proposal.aspectName' of action 'ingestProposal': 'schemaMetadata' is not a time-series aspect of entity type 'dataset' (its time-series aspects: datasetProfile, datasetUsageStatistics, operation)",
    ],
    [
      'aspect of another entity',
      { proposal: proposal({ aspectName: 'chartUsageStatistics' }) },
      "Parameter 'proposal.aspectName' of action 'ingestProposal': 'chartUsageStatistics' is not a time-series aspect of entity type 'dataset' (its time-series aspects: datasetProfile, datasetUsageStatistics, operation)",
    ],
    [
      'value not JSON',
      { proposal: proposal({}, '{"timestampMillis":') },
      /^Parameter 'proposal\.aspect\.value' of action 'ingestProposal': must be the JSON text of an object \(/,
    ],
    [
      'value JSON but not an object',
      { proposal: proposal({}, '[1,2]') },
      "Parameter 'proposal.aspect.value' of action 'ingestProposal': must be the JSON text of an object",
    ],
    [
      'missing timestampMillis',
      { proposal: proposal({}, { rowCount: 1 }) },
      "Parameter 'proposal.aspect.value' of action 'ingestProposal': has no timestampMillis (every time-series aspect value needs one)",
    ],
    [
      'timestampMillis not an integer',
      { proposal: proposal({}, { timestampMillis: '2024-01-01' }) },
      "Parameter 'proposal.aspect.value.timestampMillis' of action 'ingestProposal': must be an integer (epoch milliseconds)",
    ],
    [
      'changeType DELETE',
      { proposal: proposal({ changeType: 'DELETE' }) },
      "Parameter 'proposal.changeType' of action 'ingestProposal': 'DELETE' is not accepted for time-series aspects (accepted: UPSERT)",
    ],
    [
      'changeType PATCH',
      { proposal: proposal({ changeType: 'PATCH' }) },
      "Parameter 'proposal.changeType' of action 'ingestProposal': 'PATCH' is not accepted for time-series aspects (accepted: UPSERT)",
    ],
    [
      'urn of another entity type',
      { proposal: proposal({ entityUrn: 'urn:li:chart:(looker,1)' }) },
      "Parameter 'proposal.entityUrn' of action 'ingestProposal': 'urn:li:chart:(looker,1)' is not an urn of entity type 'dataset' (urn:li:dataset:...)",
    ],
    [
      'not an urn',
      { proposal: proposal({ entityUrn: 'db.t' }) },
      "Parameter 'proposal.entityUrn' of action 'ingestProposal': 'db.t' is not an urn of entity type 'dataset' (urn:li:dataset:...)",
    ],
    [
      'content type',
      { proposal: proposal({ aspect: { contentType: 'application/x-protobuf', value: '{}' } }) },
      "Parameter 'proposal.aspect.contentType' of action 'ingestProposal': 'application/x-protobuf' is not supported (accepted: application/json)",
    ],
    [
      'both partitions',
      { proposal: proposal({}, { timestampMillis: 1, partitionSpec: { partition: 'a', timePartition: {} } }) },
      "Parameter 'proposal.aspect.value.partitionSpec' of action 'ingestProposal': cannot have both partition and timePartition",
    ],
    [
      'messageId not a string',
      { proposal: proposal({}, { timestampMillis: 1, messageId: 5 }) },
      "Parameter 'proposal.aspect.value.messageId' of action 'ingestProposal': must be a string",
    ],
  ])('answers 400 naming the problem: %s', async (_case, body, message) => {
    const error = await apiError(ingestOne(body.proposal));
    expect(error.status).toBe(400);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(await count()).toEqual({ matching: 0, total: 0 });
  });

  it('accepts objects and arrays nested 100 levels deep, and refuses 101, in the value and in systemMetadata', async () => {
    // `levels` objects and arrays, one inside the other, alternating.
    const nested = (levels: number): unknown => (levels === 1 ? {} : levels % 2 ? { x: nested(levels - 1) } : [nested(levels - 1)]);
    const tooDeep = (parameter: string) => `Parameter '${parameter}' of action 'ingestProposal': is nested more than 100 levels deep`;

    // The value and systemMetadata are objects themselves: level 1.
    const deepValue = (levels: number) => proposal({}, { timestampMillis: levels, x: nested(levels - 1) });
    await ingestOne(deepValue(100));
    const valueError = await apiError(ingestOne(deepValue(101)));
    expect([valueError.status, valueError.message]).toEqual([400, tooDeep('proposal.aspect.value')]);

    const deepMetadata = (levels: number) =>
      proposal({ systemMetadata: { properties: nested(levels - 1) } }, { timestampMillis: 1_000 + levels });
    await ingestOne(deepMetadata(100));
    const metadataError = await apiError(ingestOne(deepMetadata(101)));
    expect([metadataError.status, metadataError.message]).toEqual([400, tooDeep('proposal.systemMetadata')]);

    expect(await count()).toEqual({ matching: 2, total: 2 });
  });

  it('accepts and ignores the MCP fields time-series ingestion does not use', async () => {
    await ingestOne({
      ...proposal(),
      entityKeyAspect: null,
      headers: {},
      auditHeader: null,
      systemMetadata: { runId: 'r1', lastObserved: 1 },
    });
    expect(await count()).toEqual({ matching: 1, total: 1 });
  });
});
