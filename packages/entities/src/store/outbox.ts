import { defineTable, deleteRows, writeRows, type SqlExecutor } from '@mds/db';

/**
 * The time-series outbox: points a request hands the time-series store, written in the same transaction as that
 * request's versioned rows, relayed to the time-series store once the transaction commits, and deleted after the
 * relay. A crash between the commit and the relay leaves them here; the next start relays them again (a point's
 * identity in the time-series store is its id, so a second write of it overwrites the first).
 */
export const timeseriesOutbox = defineTable('timeseries_outbox', {
  columns: {
    /** A random id of the row (not of the point). */
    id: { type: 'text', length: 64, bytewise: true },
    /** The document handed to the time-series store, as JSON text. */
    document: { type: 'text' },
    /** Milliseconds since the epoch of the write that queued it. */
    createdon: { type: 'bigint' },
  },
  primaryKey: ['id'],
});

// What drizzle-kit reads (drizzle.*.config.ts list this file beside tables.ts).
export const { sqlite: timeseriesOutboxSqlite, postgres: timeseriesOutboxPostgres } = timeseriesOutbox;

/** One queued point: the outbox row's id and the document's JSON text. */
export interface OutboxEntry {
  id: string;
  document: string;
}

const COLUMNS = timeseriesOutbox.columnNames;

export function addToOutbox(tx: SqlExecutor, entries: readonly OutboxEntry[], time: number): Promise<void> {
  return writeRows(tx, { table: 'timeseries_outbox', columns: COLUMNS, rows: entries.map((e) => [e.id, e.document, time]) });
}

export function removeFromOutbox(tx: SqlExecutor, ids: readonly string[]): Promise<void> {
  return deleteRows(
    tx,
    { table: 'timeseries_outbox', columns: ['id'] },
    ids.map((id) => [id]),
  );
}

/** The oldest `limit` queued points. */
export function outboxPending(on: SqlExecutor, limit: number): Promise<OutboxEntry[]> {
  return on.all<OutboxEntry>('SELECT id, document FROM timeseries_outbox ORDER BY createdon, id LIMIT ?', [limit]);
}
