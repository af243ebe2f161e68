import type { SqlDatabase } from '@mds/db';
import type { Domain, ModuleGauge } from '@mds/schema';
import { join } from 'node:path';
import { TimeseriesConfigError, type TimeseriesConfig } from './config.ts';
import { openEmbeddedStore } from './embedded/store.ts';
import { createTimeseriesIngest, type TimeseriesIngest } from './ingest.ts';
import { openApiIndexSizes, operationsActions } from './operations-actions.ts';
import type { TimeseriesStore } from './port.ts';
import { openPostgresStore } from './postgres/store.ts';
import { timeseriesReader, timeseriesValuesActions, type TimeseriesRead } from './timeseries-values.ts';
import { seedTimeseries, type SeedOptions, type SeedResult } from './seed.ts';

export {
  TimeseriesConfigError,
  parseTimeseriesConfig,
  type ElasticsearchConfig,
  type EmbeddedConfig,
  type PostgresConfig,
  type TimeseriesConfig,
} from './config.ts';
export type * from './port.ts';
export { REGISTRY, indexName, parseIndexName, type EntityType } from './registry.ts';
// mds migrate-to-postgres: an embedded store's documents read, and written into the PostgreSQL store.
export { EXPORT_BATCH, openEmbeddedTimeseriesReader, type EmbeddedIndex, type EmbeddedTimeseriesReader } from './embedded/export.ts';
export {
  postgresDocumentCounts,
  postgresIndexWithDocuments,
  postgresTimeseriesImport,
  type PostgresTimeseriesImport,
} from './postgres/import.ts';
export { seedTimeseries, type SeedOptions, type SeedResult } from './seed.ts';
export type { TimeseriesIngest } from './ingest.ts';
export type { OpenApiIndexSizes } from './operations-actions.ts';
export type { TimeseriesAspectValues, TimeseriesRead } from './timeseries-values.ts';

const OPENAPI_INDEX_SIZES_PATH = '/openapi/operations/elasticSearch/getIndexSizes';

/** What the other packages and the CLI call: ingestion, reads, and seeding. */
export interface TimeseriesService {
  /** Ingestion of time-series proposals, for the owner of the Rest.li ingestion actions (@mds/entities). */
  ingest: TimeseriesIngest;
  /** One entity's points of one aspect, newest first (GraphQL's time-series fields). */
  read(request: TimeseriesRead): Promise<Record<string, unknown>[]>;
  /** seedTimeseries on this store, "today" taken from the `now` clock given to createTimeseries. */
  seed(options: Omit<SeedOptions, 'now'>): Promise<SeedResult>;
}

/**
 * The module is named 'timeseries': Rest.li actions on 'operations' and getTimeseriesAspectValues on 'aspects', the
 * OpenAPI getIndexSizes, the gauges of index sizes and truncation tasks, and the backend's readiness. Its close()
 * stops running embedded or PostgreSQL truncations (they report an error) and releases the backend; idempotent.
 * `store` is the port itself, for the CLI and the benchmarks.
 */
export type Timeseries = Domain<TimeseriesService, { store: TimeseriesStore }>;

export interface TimeseriesDeps {
  dataDir: string;
  config: TimeseriesConfig;
  database?: SqlDatabase;
  now?: () => number;
}

/**
 * The time-series package: the embedded store in `<dataDir>/timeseries.db`, tables in the server's PostgreSQL
 * database (`database`, needed for that backend; never closed here), or Elasticsearch/OpenSearch when configured
 * (the cluster is contacted on first use, so the server starts while it is down).
 */
export async function createTimeseries(options: TimeseriesDeps): Promise<Timeseries> {
  const store = await openStore(options);
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= store.close());
  const now = options.now ?? Date.now;
  return {
    module: {
      name: 'timeseries',
      actions: [...operationsActions(store), ...timeseriesValuesActions(store)],
      // DataHub's OpenAPI twin of getIndexSizes: same privilege and 403.
      routes: [{ method: 'GET', path: OPENAPI_INDEX_SIZES_PATH, handler: ({ actor }) => openApiIndexSizes(store, actor) }],
      metrics: timeseriesGauges(store),
      ready: () => store.checkReady(),
      close,
    },
    service: {
      ingest: createTimeseriesIngest(store),
      read: timeseriesReader(store),
      seed: (seedOptions) => seedTimeseries(store, { ...seedOptions, now: now() }),
    },
    store,
  };
}

/** What `/metrics` shows of the store, read at each scrape. */
function timeseriesGauges(store: TimeseriesStore): ModuleGauge[] {
  return [
    {
      name: 'mds_timeseries_index_size_bytes',
      help: 'Bytes each time-series index occupies (what getIndexSizes reports)',
      labelNames: ['index'],
      collect: async () =>
        (await store.indexSizes()).map(({ indexName, sizeBytes }) => ({ labels: { index: indexName }, value: sizeBytes })),
    },
    {
      name: 'mds_truncation_tasks',
      help: 'Time-series truncation tasks by state',
      labelNames: ['state'],
      collect: async () => Object.entries(await store.taskCounts()).map(([state, value]) => ({ labels: { state }, value })),
    },
  ];
}

async function openStore({
  config,
  dataDir,
  database,
}: {
  config: TimeseriesConfig;
  dataDir: string;
  database?: SqlDatabase;
}): Promise<TimeseriesStore> {
  switch (config.backend) {
    case 'elasticsearch':
      // The Elasticsearch client is half of the server's code: load it only for a configured cluster.
      return new (await import('./elasticsearch/store.ts')).ElasticsearchStore({ config });
    case 'postgres':
      if (database?.dialect !== 'postgres') {
        throw new TimeseriesConfigError("The PostgreSQL time-series backend needs the server's PostgreSQL database (DATABASE_URL).");
      }
      return openPostgresStore({ db: database, indexPrefix: config.indexPrefix });
    case 'embedded':
      return openEmbeddedStore({ file: join(dataDir, 'timeseries.db'), indexPrefix: config.indexPrefix });
  }
}
