import { AUTH_TABLES } from '@mds/auth';
import { copyTable, openPostgresDatabase, openSqliteDatabase, type CopiedTable, type SqlDatabase } from '@mds/db';
import { ASPECT_STORE_TABLES } from '@mds/entities';
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config';
import { withLocalDomains } from './local';
import { CliError, command, configFromEnv } from './run';

/** What an embedded installation keeps, by file: each package's tables. */
const FILES = { 'entities.db': ASPECT_STORE_TABLES, 'mds.db': AUTH_TABLES } as const;
type File = keyof typeof FILES;
const byFile = Object.entries(FILES) as [File, readonly CopiedTable[]][];
/** What a fresh database holds before anything is written: the root user, seeded by the migrations. */
const SEEDED_USER = 'urn:li:corpuser:datahub';

export function registerMigrateToPostgresCommand(program: Command): void {
  program
    .command('migrate-to-postgres')
    .description('copy an embedded installation (the SQLite files in --from) into the empty PostgreSQL database DATABASE_URL names, and check every row arrived (stop the server first)')
    .requiredOption('--from <dir>', 'the data directory of the embedded installation')
    .action(
      command(async (options: { from: string }) => {
        const config = configFromEnv();
        if (config.database.dialect !== 'postgres') throw new CliError('migrate-to-postgres copies into PostgreSQL: set DATABASE_URL (or EBEAN_DATASOURCE_URL) to the empty database to fill.');
        for (const file of Object.keys(FILES)) {
          if (!existsSync(join(options.from, file))) throw new CliError(`${join(options.from, file)} does not exist: --from names the DATA_DIR of an embedded installation.`);
        }
        const say = (line: string) => process.stderr.write(`${line}\n`);
        say(`Copying ${options.from} into ${config.database.logLine}`);

        // The source at this release's schema first (its migrations, an older mds's tags moved into entities.db).
        const embedded: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: options.from };
        for (const name of ['DATABASE_URL', 'EBEAN_DATASOURCE_URL', 'EBEAN_DATASOURCE_USERNAME', 'EBEAN_DATASOURCE_PASSWORD']) delete embedded[name];
        await withLocalDomains(() => {}, loadConfig(embedded));

        const target = openPostgresDatabase({ url: config.database.url, poolSize: 2 });
        const sources = Object.fromEntries(Object.keys(FILES).map((file) => [file, openSqliteDatabase(join(options.from, file))])) as Record<File, SqlDatabase>;
        try {
          await requireEmpty(target);
          // The target's schema: every package's migrations, as a replica applies them.
          await withLocalDomains(async (domains) => {
            await target.transaction(async (tx) => {
              // What the migrations seeded is in the source too (the root user), as that installation left it.
              for (const tables of Object.values(FILES)) for (const table of tables) await tx.run(`DELETE FROM "${table.name}"`);
              for (const [file, tables] of byFile) {
                for (const table of tables) {
                  const copied = await copyTable(sources[file], tx, table, (n) => process.stderr.isTTY && process.stderr.write(`\r${table.name}: ${n} rows\x1b[K`));
                  if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
                  say(`${table.name}: ${copied} rows`);
                }
              }
            });
            // The search index is derived from the aspects: built again on PostgreSQL rather than copied.
            const entities = await domains.entities.store.reindex((done, total) => process.stderr.isTTY && process.stderr.write(`\rsearch index: ${done} of ${total} entities\x1b[K`));
            if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
            say(`search index: ${entities} entities`);
          }, config);
          await verifyCounts(sources, target);
        } finally {
          await target.close();
          for (const db of Object.values(sources)) await db.close();
        }
        process.stdout.write(
          `Copied ${options.from} into PostgreSQL; every table's row count matches.\n` +
            `Start the replicas with the token secrets this installation used (DATAHUB_TOKEN_SERVICE_SIGNING_KEY and DATAHUB_TOKEN_SERVICE_SALT, ` +
            `or the values in ${join(options.from, 'secrets.json')}), or its tokens are refused. Time-series data (timeseries.db) is not copied: ` +
            `replicas share it through Elasticsearch.\n`,
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
  if ((await found('SELECT 1 FROM metadata_aspect_v2 WHERE urn <> ? LIMIT 1', [SEEDED_USER])) || (await found('SELECT 1 FROM access_tokens LIMIT 1'))) {
    throw new CliError('The PostgreSQL database already holds entities or tokens: migrate-to-postgres fills an empty database only.');
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
