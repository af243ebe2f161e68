import type { SqlExecutor } from '@mds/db';
import type { TimeseriesDocument } from '../port.ts';
import { INDEX_COLUMNS, ROUTE_COLUMNS, lockIndex, quote, type IndexRoute } from './sql.ts';
import { columnsOf, createIndexIn } from './store.ts';

/**
 * Documents written into the PostgreSQL store's tables in the caller's transaction, for `mds migrate-to-postgres`:
 * an embedded store's documents go into the database in the transaction that copies the entities, so a copy that
 * fails leaves the database as empty as it found it (and may simply be run again). The store's own tables must
 * exist (its migrations: open the store once first).
 */
export interface PostgresTimeseriesImport {
  /**
   * Appends `documents`, all of index `index`, to that index, which is made when missing (also for no documents: an
   * empty index is still listed by getIndexSizes). Plain inserts, one statement per call (an array per column):
   * the documents must be distinct by (timestampMillis, id) and new to the index, as an embedded table's rows are to
   * a database holding no time series; a duplicate fails the statement, and with it the transaction.
   */
  write(index: string, documents: readonly TimeseriesDocument[]): Promise<void>;
  /**
   * One whole index: made (even when `batches` yields nothing), then each batch written as `write` does. Batches are
   * taken one at a time (an embedded reader's stream), `progress` told the running total after each; answers how
   * many documents were written.
   */
  importIndex(
    index: string,
    batches: Iterable<readonly TimeseriesDocument[]> | AsyncIterable<readonly TimeseriesDocument[]>,
    progress?: (written: number) => void,
  ): Promise<number>;
}

/** Inserts a batch, one array parameter per column (the order of INDEX_COLUMNS and columnsOf). */
const insertSql = (table: string) => `INSERT INTO ${quote(table)} (${INDEX_COLUMNS.join(', ')})
  SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])`;

export function postgresTimeseriesImport(tx: SqlExecutor): PostgresTimeseriesImport {
  if (tx.dialect !== 'postgres') throw new Error(`The PostgreSQL time-series store needs a PostgreSQL database (got ${tx.dialect}).`);
  const tables = new Map<string, string>();
  const tableOf = async (index: string) => {
    let table = tables.get(index);
    if (table === undefined) {
      const id = await createIndexIn(tx, index);
      // Shared until the transaction ends, as every write holds it: no truncation moves the index's rows meanwhile.
      await lockIndex(tx, id, 'shared');
      const route = (await tx.get<IndexRoute>(`SELECT ${ROUTE_COLUMNS} FROM timeseries_indices WHERE id = ?`, [id]))!;
      if (route.copyTable !== null) throw new Error(`A truncation of ${index} is running: stop the replicas using this database first.`);
      tables.set(index, (table = route.table));
    }
    return table;
  };
  const write = async (index: string, documents: readonly TimeseriesDocument[]) => {
    const table = await tableOf(index);
    const stray = documents.find((d) => d.index !== index);
    if (stray) throw new Error(`A document of ${stray.index} given as one of ${index}.`);
    if (documents.length > 0) await tx.run(insertSql(table), columnsOf(documents));
  };
  return {
    write,
    async importIndex(index, batches, progress = () => {}) {
      await tableOf(index);
      let written = 0;
      for await (const batch of batches) {
        await write(index, batch);
        written += batch.length;
        progress(written);
      }
      return written;
    },
  };
}

/** Every index of the PostgreSQL store and how many documents it holds; none when the store's tables do not exist yet. */
export async function postgresDocumentCounts(db: SqlExecutor): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { name, table } of await indexTables(db)) {
    counts.set(name, Number((await db.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)}`))!.n));
  }
  return counts;
}

/**
 * The first index (by name) that holds a document, or undefined: a database no replica has written time series to
 * (an index may exist empty: a truncation, or a write whose rows were all deleted since).
 */
export async function postgresIndexWithDocuments(db: SqlExecutor): Promise<string | undefined> {
  for (const { name, table } of await indexTables(db)) {
    if (await db.get(`SELECT 1 FROM ${quote(table)} LIMIT 1`)) return name;
  }
  return undefined;
}

async function indexTables(db: SqlExecutor): Promise<{ name: string; table: string }[]> {
  const present = await db.get<{ present: boolean }>(`SELECT to_regclass('timeseries_indices') IS NOT NULL AS present`);
  if (!present?.present) return [];
  return db.all(`SELECT name, table_name AS "table" FROM timeseries_indices ORDER BY name`);
}
