import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The bookkeeping tables of `timeseries.db`. The index tables themselves are created at run time, one per index
 * (see src/embedded/sql.js), so they are not part of this schema. Table names here must match sql.js.
 */

/** Small settings, e.g. the node id that prefixes task ids. */
export const meta = sqliteTable('timeseries_meta', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/** Truncation tasks: progress is written by the worker in the same transaction as each batch of rows. */
export const tasks = sqliteTable(
  'timeseries_tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    indexName: text('index_name').notNull(),
    mode: text('mode', { enum: ['delete', 'reindex'] }).notNull(),
    endTimeMillis: integer('end_time_millis').notNull(),
    batchSize: integer('batch_size').notNull(),
    /** Throttle in rows per second; null when unthrottled. */
    rowsPerSecond: integer('rows_per_second'),
    state: text('state', { enum: ['running', 'completed', 'failed'] }).notNull(),
    total: integer('total').notNull().default(0),
    deleted: integer('deleted').notNull().default(0),
    created: integer('created').notNull().default(0),
    batches: integer('batches').notNull().default(0),
    startedAt: integer('started_at').notNull(),
    heartbeatAt: integer('heartbeat_at').notNull(),
    finishedAt: integer('finished_at'),
    error: text('error'),
    /** Which process and store instance runs the task: a task whose owner is gone is reported as failed. */
    ownerPid: integer('owner_pid').notNull(),
    ownerInstance: text('owner_instance').notNull(),
  },
  (t) => [index('timeseries_tasks_index_state').on(t.indexName, t.state)],
);

/** Bumped by every transaction that writes an index table, so cached sizes are recomputed only when stale. */
export const indexVersions = sqliteTable('timeseries_index_versions', {
  name: text('name').primaryKey(),
  version: integer('version').notNull(),
});
