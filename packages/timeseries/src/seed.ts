import type { TimeseriesStore } from './port.ts';
import { toDocument, type Proposal } from './proposal.ts';
import { REGISTRY, type EntityType } from './registry.ts';

export interface SeedOptions {
  /** Days of history, ending today. */
  days: number;
  /** Documents per aspect per day. */
  docsPerDay: number;
  /** Clock for "today" (defaults to Date.now()). */
  now?: number;
}

export interface SeedResult {
  documents: number;
  indices: number;
}

const DAY_MS = 86_400_000;
const WRITE_BATCH = 5_000;

/**
 * Writes plausible documents for every aspect of the registry over `days` days, through the same validation and
 * write path as ingestProposalBatch, so a fresh install has a size report worth looking at. Deterministic: the
 * same options and clock give the same documents (seeding twice overwrites rather than doubles).
 */
export async function seedTimeseries(store: TimeseriesStore, options: SeedOptions): Promise<SeedResult> {
  const { days, docsPerDay } = options;
  if (!Number.isInteger(days) || days < 1) throw new RangeError(`days must be a positive integer (got ${days})`);
  if (!Number.isInteger(docsPerDay) || docsPerDay < 1) {
    throw new RangeError(`docsPerDay must be a positive integer (got ${docsPerDay})`);
  }
  const today = Math.floor((options.now ?? Date.now()) / DAY_MS) * DAY_MS;
  const random = mulberry32(days * 1_000_003 + docsPerDay);
  let pending: Proposal[] = [];
  let documents = 0;
  const flush = async () => {
    const batch = pending.map((proposal, i) =>
      toDocument(proposal, { action: 'seed', path: `proposals.${i}`, indexPrefix: store.indexPrefix }),
    );
    await store.write(batch);
    documents += batch.length;
    pending = [];
  };

  for (let day = days - 1; day >= 0; day--) {
    const dayStart = today - day * DAY_MS;
    for (const [entityType, aspects] of Object.entries(REGISTRY)) {
      for (const aspectName of aspects) {
        for (let i = 0; i < docsPerDay; i++) {
          // Usage statistics are daily buckets, one per entity; other aspects are events spread over the day.
          const daily = aspectName.endsWith('UsageStatistics');
          const timestampMillis = daily ? dayStart : dayStart + Math.floor((i * DAY_MS) / docsPerDay);
          const urn = entityUrn(entityType, daily ? i : i % 50);
          const value = aspectValue(aspectName, { timestampMillis, urn, i, random });
          pending.push({
            entityType,
            entityUrn: urn,
            changeType: 'UPSERT',
            aspectName,
            aspect: { contentType: 'application/json', value: JSON.stringify(value) },
            systemMetadata: { runId: `seed-${new Date(dayStart).toISOString().slice(0, 10)}`, lastObserved: timestampMillis },
          });
          if (pending.length === WRITE_BATCH) await flush();
        }
      }
    }
  }
  if (pending.length > 0) await flush();
  return { documents, indices: Object.values(REGISTRY).flat().length };
}

const PLATFORMS = ['hive', 'snowflake', 'bigquery', 'postgres', 'kafka'];
const USERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];

function entityUrn(entityType: EntityType, n: number): string {
  const id = n.toString(16).padStart(8, '0');
  switch (entityType) {
    case 'dataset':
      return `urn:li:dataset:(urn:li:dataPlatform:${PLATFORMS[n % PLATFORMS.length]},analytics.table_${n},PROD)`;
    case 'dashboard':
      return `urn:li:dashboard:(looker,dashboards.${n})`;
    case 'chart':
      return `urn:li:chart:(looker,look.${n})`;
    case 'dataJob':
      return `urn:li:dataJob:(urn:li:dataFlow:(airflow,etl_${n % 10},prod),task_${n})`;
    default:
      return `urn:li:${entityType}:${id}`;
  }
}

type Context = { timestampMillis: number; urn: string; i: number; random: () => number };

const int = (random: () => number, max: number) => Math.floor(random() * max);
const daily = { unit: 'DAY', multiple: 1 };

function userCounts(random: () => number) {
  return USERS.slice(0, 1 + int(random, USERS.length)).map((user) => ({
    user: `urn:li:corpuser:${user}`,
    count: 1 + int(random, 40),
  }));
}

/** A value shaped like the real aspect (the fields DataHub's UI reads), with made-up numbers. */
function aspectValue(aspectName: string, { timestampMillis, urn, i, random }: Context): Record<string, unknown> {
  switch (aspectName) {
    case 'datasetProfile':
      return {
        timestampMillis,
        rowCount: 1_000 + int(random, 10_000_000),
        columnCount: 3 + int(random, 60),
        sizeInBytes: 10_000 + int(random, 5_000_000_000),
        fieldProfiles: ['id', 'created_at', 'amount'].map((fieldPath) => ({
          fieldPath,
          uniqueCount: int(random, 100_000),
          nullCount: int(random, 1_000),
          nullProportion: Math.round(random() * 1000) / 1000,
        })),
      };
    case 'datasetUsageStatistics':
      return {
        timestampMillis,
        eventGranularity: daily,
        uniqueUserCount: 1 + int(random, 8),
        totalSqlQueries: int(random, 500),
        topSqlQueries: [`SELECT * FROM analytics.table_${i} LIMIT ${10 + int(random, 100)}`],
        userCounts: userCounts(random),
        fieldCounts: [{ fieldPath: 'id', count: int(random, 300) }],
      };
    case 'operation':
      return {
        timestampMillis,
        lastUpdatedTimestamp: timestampMillis,
        operationType: ['INSERT', 'UPDATE', 'DELETE', 'CREATE'][int(random, 4)],
        actor: `urn:li:corpuser:${USERS[int(random, USERS.length)]}`,
        numAffectedRows: int(random, 100_000),
        messageId: `op-${timestampMillis}-${i}`,
      };
    case 'dashboardUsageStatistics':
      return {
        timestampMillis,
        eventGranularity: daily,
        viewsCount: int(random, 1_000),
        executionsCount: int(random, 200),
        uniqueUserCount: 1 + int(random, 8),
        userCounts: userCounts(random).map(({ user, count }) => ({ user, viewsCount: count })),
      };
    case 'chartUsageStatistics':
      return {
        timestampMillis,
        eventGranularity: daily,
        viewsCount: int(random, 1_000),
        uniqueUserCount: 1 + int(random, 8),
        userCounts: userCounts(random).map(({ user, count }) => ({ user, viewsCount: count })),
      };
    case 'assertionRunEvent':
      return {
        timestampMillis,
        runId: `run-${timestampMillis}`,
        assertionUrn: urn,
        asserteeUrn: entityUrn('dataset', i % 50),
        status: 'COMPLETE',
        result: { type: random() < 0.9 ? 'SUCCESS' : 'FAILURE', actualAggValue: random() * 100 },
        partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT' },
      };
    case 'dataProcessInstanceRunEvent':
      return {
        timestampMillis,
        status: 'COMPLETE',
        attempt: 1 + int(random, 3),
        result: { type: random() < 0.95 ? 'SUCCESS' : 'FAILURE', nativeResultType: 'airflow' },
      };
    case 'datahubIngestionRunSummary':
      return {
        timestampMillis,
        pipelineName: `ingest_${PLATFORMS[i % PLATFORMS.length]}`,
        platformInstanceId: 'prod',
        runId: `${PLATFORMS[i % PLATFORMS.length]}-${timestampMillis}`,
        runStatus: 'COMPLETED',
        numWorkUnitsCommitted: int(random, 5_000),
        numEntitiesCreated: int(random, 200),
        numEventsProduced: int(random, 10_000),
      };
    case 'datahubIngestionCheckpoint':
      return {
        timestampMillis,
        pipelineName: `ingest_${PLATFORMS[i % PLATFORMS.length]}`,
        platformInstanceId: 'prod',
        config: '{}',
        state: { formatVersion: '1.0', serde: 'base85-bz2-json', payload: randomPayload(random) },
        runId: `${PLATFORMS[i % PLATFORMS.length]}-${timestampMillis}`,
      };
    case 'queryUsageStatistics':
      return {
        timestampMillis,
        eventGranularity: daily,
        queryCount: int(random, 2_000),
        uniqueUserCount: 1 + int(random, 8),
        userCounts: userCounts(random),
      };
    default:
      return { timestampMillis };
  }
}

/** Checkpoint payloads are the bulk of real checkpoint documents: a few hundred opaque bytes. */
function randomPayload(random: () => number): string {
  let payload = '';
  for (let n = 0; n < 64; n++)
    payload += Math.floor(random() * 0x10000)
      .toString(16)
      .padStart(4, '0');
  return payload;
}

/** A tiny seeded PRNG: reproducible data without a dependency. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
