import { ANALYTICS_TABLES } from '@mds/analytics';
import { AUTH_TABLES } from '@mds/auth';
import { copyTable, openPostgresDatabase, openSqliteDatabase, type CopiedTable, type SqlDatabase } from '@mds/db';
import { ASPECT_STORE_TABLES } from '@mds/entities';
import {
  openEmbeddedTimeseriesReader,
  parseIndexName,
  parseTimeseriesConfig,
  postgresDocumentCounts,
  postgresIndexWithDocuments,
  postgresTimeseriesImport,
  type EmbeddedIndex,
  type EmbeddedTimeseriesReader,
  type TimeseriesConfig,
} from '@mds/timeseries';
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config';
import { withLocalDomains } from './local';
import { CliError, command, configFromEnv } from './run';

/** What an embedded installation keeps, by file: each package's tables. */
const FILES = { 'entities.db': ASPECT_STORE_TABLES, 'mds.db': AUTH_TABLES, 'analytics.db': ANALYTICS_TABLES } as const;
/** The files every installation has; the others (the web UI's usage events) an older release did not make, and the
 * source's migrations below create them empty. */
const REQUIRED: readonly File[] = ['entities.db', 'mds.db'];
type File = keyof typeof FILES;
const byFile = Object.entries(FILES) as [File, readonly CopiedTable[]][];
/** The embedded time-series store, beside the files above; an installation that never ingested any may have none. */
const TIMESERIES_FILE = 'timeseries.db';
/** What a fresh database holds before anything is written: the root user, seeded by the migrations. */
const SEEDED_USER = 'urn:li:corpuser:datahub';

export function registerMigrateToPostgresCommand(program: Command): void {
  program
    .command('migrate-to-postgres')
    .description(
      "copy an embedded installation (the SQLite files in --from, time series and the web UI's usage events included) into the empty PostgreSQL database DATABASE_URL names, and check every row arrived (stop the server first)",
    )
    .requiredOption('--from <dir>', 'the data directory of the embedded installation')
    .action(
      command(async (options: { from: string }) => {
        const config = configFromEnv();
        if (config.database.dialect !== 'postgres')
          throw new CliError(
            'migrate-to-postgres copies into PostgreSQL: set DATABASE_URL (or EBEAN_DATASOURCE_URL) to the empty database to fill.',
          );
        for (const file of REQUIRED) {
          if (!existsSync(join(options.from, file)))
            throw new CliError(`${join(options.from, file)} does not exist: --from names the DATA_DIR of an embedded installation.`);
        }
        const timeseries = parseTimeseriesConfig(config.env, { database: 'postgres' });
        // Looked for before the source is brought to this release's schema, which makes an empty one.
        const timeseriesFile = existsSync(join(options.from, TIMESERIES_FILE)) ? join(options.from, TIMESERIES_FILE) : undefined;
        const say = (line: string) => process.stderr.write(`${line}\n`);
        const progress = (line: string) => process.stderr.isTTY && process.stderr.write(`\r${line}\x1b[K`);
        const endProgress = () => process.stderr.isTTY && process.stderr.write('\r\x1b[K');
        say(`Copying ${options.from} into ${config.database.logLine}`);

        // The source at this release's schema first (its migrations, an older mds's tags moved into entities.db).
        const embedded: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: options.from };
        for (const name of ['DATABASE_URL', 'EBEAN_DATASOURCE_URL', 'EBEAN_DATASOURCE_USERNAME', 'EBEAN_DATASOURCE_PASSWORD'])
          delete embedded[name];
        await withLocalDomains(() => {}, loadConfig(embedded));

        const target = openPostgresDatabase({ url: config.database.url, poolSize: 2 });
        const sources = Object.fromEntries(
          Object.keys(FILES).map((file) => [file, openSqliteDatabase(join(options.from, file))]),
        ) as Record<File, SqlDatabase>;
        const timeseriesSource = timeseriesFile ? openEmbeddedTimeseriesReader(timeseriesFile) : undefined;
        let outcome: string;
        try {
          await requireEmpty(target);
          // Time series go into the database when the replicas will keep them there, that is with no cluster configured.
          const toCopy = timeseries.backend === 'elasticsearch' ? undefined : timeseriesSource;
          const indices = timeseriesSource?.indices() ?? [];
          outcome = timeseriesOutcome(timeseries, timeseriesFile, indices);
          if (!toCopy) say(`time series: ${outcome}`);
          // The target's schema: every package's migrations, as a replica applies them.
          await withLocalDomains(async (domains) => {
            await target.transaction(async (tx) => {
              // What the migrations seeded is in the source too (the root user), as that installation left it.
              for (const tables of Object.values(FILES)) for (const table of tables) await tx.run(`DELETE FROM "${table.name}"`);
              for (const [file, tables] of byFile) {
                for (const table of tables) {
                  const copied = await copyTable(sources[file], tx, table, (n) => progress(`${table.name}: ${n} rows`));
                  endProgress();
                  say(`${table.name}: ${copied} rows`);
                }
              }
              // In the same transaction: a copy that fails anywhere leaves the database empty, to be filled by a run again.
              if (toCopy) {
                const into = postgresTimeseriesImport(tx);
                for (const { index, documents } of indices) {
                  const written = await into.importIndex(index, toCopy.documents(index), (n) =>
                    progress(`time series ${index}: ${n} of ${documents} documents`),
                  );
                  endProgress();
                  say(`time series ${index}: ${written} documents`);
                }
              }
            });
            // The search index is derived from the aspects: built again on PostgreSQL rather than copied.
            const entities = await domains.entities.service.reindex((done, total) =>
              progress(`search index: ${done} of ${total} entities`),
            );
            endProgress();
            say(`search index: ${entities} entities`);
          }, config);
          await verifyCounts(sources, target);
          if (toCopy) await verifyTimeseries(toCopy, target);
        } finally {
          await target.close();
          for (const db of Object.values(sources)) await db.close();
          timeseriesSource?.close();
        }
        process.stdout.write(
          `Copied ${options.from} into PostgreSQL; every table's row count matches.\n` +
            `Time series: ${outcome}\n` +
            `Start the replicas with the token secrets this installation used (DATAHUB_TOKEN_SERVICE_SIGNING_KEY and DATAHUB_TOKEN_SERVICE_SALT, ` +
            `or the values in ${join(options.from, 'secrets.json')}), or its tokens are refused.\n`,
        );
      }),
    );
}

/** Refuses a database something was already written to (more than the root user its migrations seed). */
async function requireEmpty(target: SqlDatabase) {
  const found = async (sql: string, params: unknown[] = []) => {
    try {
      return (await target.get(sql, params)) !== undefined;
    } catch (error) {
      // A table not created yet: a database no mds has used.
      if ((error as { code?: string }).code === '42P01') return false;
      throw error;
    }
  };
  if (
    (await found('SELECT 1 FROM metadata_aspect_v2 WHERE urn <> ? LIMIT 1', [SEEDED_USER])) ||
    (await found('SELECT 1 FROM access_tokens LIMIT 1'))
  ) {
    throw new CliError('The PostgreSQL database already holds entities or tokens: migrate-to-postgres fills an empty database only.');
  }
  // The same rule for time series: documents a replica wrote (an index it made and left empty holds nothing).
  const index = await postgresIndexWithDocuments(target);
  if (index)
    throw new CliError(`The PostgreSQL database already holds time series (${index}): migrate-to-postgres fills an empty database only.`);
}

/**
 * What becomes of the embedded time series, in one sentence: copied into the database (where the replicas share them
 * when no cluster is configured), nothing to copy, or left where they are because the replicas will use a cluster.
 */
function timeseriesOutcome(config: TimeseriesConfig, file: string | undefined, indices: readonly EmbeddedIndex[]): string {
  const documents = indices.reduce((sum, index) => sum + index.documents, 0);
  const held = `${documents} documents in ${indices.length} ${indices.length === 1 ? 'index' : 'indices'}`;
  if (config.backend === 'elasticsearch') {
    const cluster = `the replicas keep time series in the cluster at ${config.node} (ELASTICSEARCH_URL or ELASTICSEARCH_HOST is set), which this command does not write to`;
    if (documents === 0) return `none copied: ${cluster}.`;
    return (
      `not copied: ${cluster}. ${file} (${held}) is left as it is. To keep them, ingest them into the cluster again, or ` +
      `migrate again into a new, empty database without ELASTICSEARCH_URL and ELASTICSEARCH_HOST (the replicas then share time series through PostgreSQL).`
    );
  }
  if (!file) return `none to copy (the data directory has no ${TIMESERIES_FILE}).`;
  const outside = indices.filter(({ index }) => !parseIndexName(config.indexPrefix, index)).map(({ index }) => index);
  return (
    `${held} copied into PostgreSQL, where the replicas share them; every index's document count matches. ` +
    `Truncation tasks are not copied (getEsTaskStatus does not know those run before the move).` +
    (outside.length > 0
      ? ` Served only by replicas with the INDEX_PREFIX they were written under (${config.indexPrefix ? `not INDEX_PREFIX=${config.indexPrefix}` : 'this one has none'}): ${outside.join(', ')}.`
      : '')
  );
}

/** Every index of the embedded store holds as many documents in PostgreSQL. */
async function verifyTimeseries(source: EmbeddedTimeseriesReader, target: SqlDatabase) {
  const copied = await postgresDocumentCounts(target);
  for (const { index, documents } of source.indices()) {
    const to = copied.get(index);
    if (to !== documents)
      throw new CliError(
        `time series ${index}: ${documents} documents in ${TIMESERIES_FILE}, ${to ?? 'no index'} in PostgreSQL: the copy is incomplete.`,
      );
  }
}

/** Every copied table holds as many rows as its source. */
async function verifyCounts(sources: Record<File, SqlDatabase>, target: SqlDatabase) {
  for (const [file, tables] of byFile) {
    for (const table of tables) {
      const count = async (db: SqlDatabase) => Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM "${table.name}"`))!.n);
      const [from, to] = [await count(sources[file]), await count(target)];
      if (from !== to) throw new CliError(`${table.name}: ${from} rows in ${file}, ${to} in PostgreSQL: the copy is incomplete.`);
    }
  }
}
