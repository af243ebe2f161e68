import Database from 'better-sqlite3';
import type { PartitionSpecDocument, TimeseriesDocument } from '../port.ts';
import { INDEX_COLUMNS, quote } from './sql.js';

/** One index of an embedded store, as a copy elsewhere needs to know it. */
export interface EmbeddedIndex {
  /** Full index name, prefix included (the table's name). */
  index: string;
  documents: number;
}

/**
 * The documents of an embedded store (`<dataDir>/timeseries.db`), read for a copy elsewhere (`mds migrate-to-postgres`).
 * The server must be stopped, and the file at this release's schema (open it once with createTimeseries first: that
 * also drops what dead truncations left behind).
 */
export interface EmbeddedTimeseriesReader {
  /**
   * Every index table of the file, whatever prefix it is under (a copy loses nothing because of a changed
   * INDEX_PREFIX), empty ones included, by name. Scratch tables of truncations are not indices.
   */
  indices(): EmbeddedIndex[];
  /**
   * One index's documents with every field, in key order (timestampMillis, id), at most `batchSize` per batch:
   * each batch is a query of its own after the last key of the one before, so only one batch is ever in memory and a
   * table of millions of rows streams. Synchronous reads of a local file: a batch of 5,000 takes milliseconds.
   */
  documents(index: string, batchSize?: number): Iterable<TimeseriesDocument[]>;
  close(): void;
}

/** Rows per batch by default: one statement on PostgreSQL (an array per column), a few megabytes of JSON. */
export const EXPORT_BATCH = 5_000;

/** Index tables, as the store lists them: the LIKE pattern leaves out `…__reindex_<n>` and `…__retired_<n>` scratch tables. */
const INDEX_TABLES_SQL = `SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%aspect\\_v1' ESCAPE '\\' ORDER BY name`;

interface Row {
  timestampMillis: number;
  id: string;
  urn: string;
  eventGranularity: string | null;
  messageId: string | null;
  partitionSpec: string | null;
  runId: string | null;
  document: string;
  systemMetadata: string | null;
}

/** Opens `file` (which must exist) for reading its documents; writes nothing to it. */
export function openEmbeddedTimeseriesReader(file: string): EmbeddedTimeseriesReader {
  const db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  const columns = INDEX_COLUMNS.join(', ');
  return {
    indices: () =>
      db.transaction(() =>
        (db.prepare(INDEX_TABLES_SQL).pluck().all() as string[]).map((index) => ({
          index,
          documents: Number(
            db
              .prepare(`SELECT count(*) FROM ${quote(index)}`)
              .pluck()
              .get(),
          ),
        })),
      )(),
    *documents(index, batchSize = EXPORT_BATCH) {
      const first = db.prepare(`SELECT ${columns} FROM ${quote(index)} ORDER BY timestampMillis, id LIMIT ?`);
      // A row-value comparison on the primary key: a seek to the last key read, not a scan from the start.
      const next = db.prepare(
        `SELECT ${columns} FROM ${quote(index)} WHERE (timestampMillis, id) > (?, ?) ORDER BY timestampMillis, id LIMIT ?`,
      );
      let rows = first.all(batchSize) as Row[];
      while (rows.length > 0) {
        yield rows.map((row) => documentOf(index, row));
        if (rows.length < batchSize) return;
        const last = rows.at(-1)!;
        rows = next.all(last.timestampMillis, last.id, batchSize) as Row[];
      }
    },
    close: () => db.close(),
  };
}

function documentOf(index: string, row: Row): TimeseriesDocument {
  return {
    index,
    id: row.id,
    urn: row.urn,
    timestampMillis: row.timestampMillis,
    eventGranularity: row.eventGranularity,
    messageId: row.messageId,
    partitionSpec: row.partitionSpec === null ? null : (JSON.parse(row.partitionSpec) as PartitionSpecDocument),
    runId: row.runId,
    eventJson: row.document,
    systemMetadataJson: row.systemMetadata,
  };
}
