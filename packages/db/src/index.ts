export { DatabaseTooNewError, applyMigrations, openDatabase, type OpenOptions, type SqliteDatabase } from './sqlite';

export { createCommitCache, type ReadCache } from './read-cache';
export { createStampedCache } from './stamped-cache';
export type { SqlDatabase, SqlDialect, SqlExecutor, TransactionOptions } from './port';
export { openSqliteDatabase, type SqliteAdapterOptions } from './sqlite-adapter';
export { CommitSyncError } from './wal-sync';
export { copyTable, type CopiedTable } from './copy-table';
export { deleteRows, writeRows, type OnConflict, type RowsWrite } from './rows';
export { DatabaseConfigError, databaseFromEnv, masked, type DatabaseConfig } from './database-config';
export { isDatabaseUnavailable } from './unavailable';
export { DEFAULT_POOL_SIZE, openPostgresDatabase, type PostgresOptions } from './postgres-adapter';
export {
  copiedTable,
  defineTable,
  millisecondsOf,
  timestampParameter,
  type AnyTableDescription,
  type ColumnSpec,
  type IndexKey,
  type IndexSpec,
  type TableDescription,
  type TableSpec,
} from './schema-factory';
