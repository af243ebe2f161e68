/**
 * Time-series MetadataChangeProposals for every aspect of the registry (spec 6): 10 aspects, so 10 indices.
 * Row `i` of an aspect has timestamp T0 + i ms, so "the first n rows" of an index is "timestampMillis <= T0 + n - 1"
 * and a truncation deletes exactly the rows the harness asks for.
 */
export const T0 = Date.UTC(2024, 0, 1);

interface AspectSpec {
  entityType: string;
  aspectName: string;
  urn(k: number): string;
  value(i: number): Record<string, unknown>;
}

const DAY = { unit: 'DAY', multiple: 1 };

export const ASPECTS: readonly AspectSpec[] = [
  {
    entityType: 'dataset',
    aspectName: 'datasetProfile',
    urn: (k) => `urn:li:dataset:(urn:li:dataPlatform:hive,warehouse.table_${k},PROD)`,
    value: (i) => ({ rowCount: 1000 + i, columnCount: 12, sizeInBytes: 4096 * (i % 977) }),
  },
  {
    entityType: 'dataset',
    aspectName: 'datasetUsageStatistics',
    urn: (k) => `urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.table_${k},PROD)`,
    value: (i) => ({ eventGranularity: DAY, uniqueUserCount: i % 40, totalSqlQueries: i % 500 }),
  },
  {
    entityType: 'dataset',
    aspectName: 'operation',
    urn: (k) => `urn:li:dataset:(urn:li:dataPlatform:postgres,app.table_${k},PROD)`,
    value: (i) => ({ operationType: 'INSERT', lastUpdatedTimestamp: T0 + i, actor: 'urn:li:corpuser:etl', numAffectedRows: i % 1000 }),
  },
  {
    entityType: 'dashboard',
    aspectName: 'dashboardUsageStatistics',
    urn: (k) => `urn:li:dashboard:(looker,dashboard_${k})`,
    value: (i) => ({ eventGranularity: DAY, viewsCount: i % 300, executionsCount: i % 20 }),
  },
  {
    entityType: 'chart',
    aspectName: 'chartUsageStatistics',
    urn: (k) => `urn:li:chart:(looker,chart_${k})`,
    value: (i) => ({ eventGranularity: DAY, viewsCount: i % 300, uniqueUserCount: i % 25 }),
  },
  {
    entityType: 'assertion',
    aspectName: 'assertionRunEvent',
    urn: (k) => `urn:li:assertion:assertion_${k}`,
    value: (i) => ({
      runId: `run-${i}`,
      assertionUrn: `urn:li:assertion:assertion_${i % 1000}`, // the row's entity (urn(row % ENTITIES))
      asserteeUrn: `urn:li:dataset:(urn:li:dataPlatform:hive,warehouse.table_${i % 1000},PROD)`,
      status: 'COMPLETE',
    }),
  },
  {
    entityType: 'dataProcessInstance',
    aspectName: 'dataProcessInstanceRunEvent',
    urn: (k) => `urn:li:dataProcessInstance:run_${k}`,
    value: (i) => ({ status: 'COMPLETE', attempt: 1 + (i % 3), result: { type: 'SUCCESS', nativeResultType: 'airflow' } }),
  },
  {
    entityType: 'dataJob',
    aspectName: 'datahubIngestionRunSummary',
    urn: (k) => `urn:li:dataJob:(urn:li:dataFlow:(datahub,ingestion,PROD),job_${k})`,
    value: (i) => ({
      pipelineName: `pipeline-${i % 50}`,
      platformInstanceId: 'prod',
      runId: `run-${i}`,
      runStatus: 'COMPLETED',
      numEventsProduced: i % 10_000,
    }),
  },
  {
    entityType: 'dataJob',
    aspectName: 'datahubIngestionCheckpoint',
    urn: (k) => `urn:li:dataJob:(urn:li:dataFlow:(datahub,ingestion,PROD),checkpoint_${k})`,
    value: (i) => ({
      pipelineName: `pipeline-${i % 50}`,
      platformInstanceId: 'prod',
      runId: `run-${i}`,
      config: '',
      state: { formatVersion: '1.0', serde: 'utf-8' },
    }),
  },
  {
    entityType: 'query',
    aspectName: 'queryUsageStatistics',
    urn: (k) => `urn:li:query:query_${k}`,
    value: (i) => ({ eventGranularity: DAY, queryCount: i % 100 }),
  },
];

/** The index the embedded store keeps an aspect in (spec 6, no INDEX_PREFIX). */
export const indexNameOf = (aspect: AspectSpec) => `${aspect.entityType}_${aspect.aspectName}aspect_v1`.toLowerCase();

/** Entities per aspect: rows repeat urns, as real usage statistics do. */
const ENTITIES = 1000;

function proposal(aspect: AspectSpec, row: number, timestampOffset = 0) {
  return {
    entityType: aspect.entityType,
    entityUrn: aspect.urn(row % ENTITIES),
    changeType: 'UPSERT',
    aspectName: aspect.aspectName,
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({ timestampMillis: T0 + timestampOffset + row, ...aspect.value(row) }),
    },
  };
}

/** Rows [from, to) of aspects[aspectNo]: one ingestProposalBatch body. */
export function batchBody(aspectNo: number, from: number, to: number, timestampOffset = 0): string {
  const aspect = ASPECTS[aspectNo]!;
  const proposals = [];
  for (let row = from; row < to; row++) proposals.push(proposal(aspect, row, timestampOffset));
  return JSON.stringify({ proposals });
}

/**
 * How many rows each index gets: the truncated index holds the rows a truncation deletes plus the same share of
 * the rest as every other index, so truncations leave survivors (as real ones do).
 */
export function fillPlan(totalRows: number, truncateRows: number): number[] {
  const share = Math.floor((totalRows - truncateRows) / ASPECTS.length);
  const rows = ASPECTS.map(() => share);
  rows[0] = totalRows - share * (ASPECTS.length - 1);
  return rows;
}
