import {
  isDatabaseUnavailable,
  openDatabase,
  openPostgresDatabase,
  openSqliteDatabase,
  type DatabaseConfig,
  type SqlDatabase,
  type SqliteDatabase,
} from '@mds/db';
import { join } from 'node:path';

/** The databases the packages are given, as the configuration says where data lives. */
export interface Storage {
  /** Tokens, roles, first start (@mds/auth). */
  auth: SqlDatabase;
  /** Entities and their search index (@mds/entities); its module closes it. */
  entities: SqlDatabase;
  /**
   * The web UI's usage events (@mds/analytics); its module closes it. On SQLite a file of its own, so frequent small
   * writes never wait behind entity writes.
   */
  analytics: SqlDatabase;
  /** The mds.db an older mds kept tags in, to move them from (SQLite only: PostgreSQL never had them). */
  legacy?: SqliteDatabase;
  /** For /health: resolves when the database answers, throws saying why not. */
  readinessCheck?: () => Promise<void>;
  /** Closes what the `entities` and `analytics` modules do not: run after every module. */
  close(): Promise<void>;
}

/**
 * SQLite: `mds.db` (auth, and the legacy tags), `entities.db` and `analytics.db` in DATA_DIR. PostgreSQL: one pool for the whole
 * process, shared by auth and entities, so a replica holds at most DATABASE_POOL_SIZE connections.
 */
export function openStorage(database: DatabaseConfig, dataDir: string): Storage {
  if (database.dialect === 'postgres') {
    const pool = openPostgresDatabase({ url: database.url, poolSize: database.poolSize });
    return {
      auth: pool,
      // Entities' module closes its database; the pool is closed once, after every module, by close().
      entities: { ...pool, close: async () => {} },
      analytics: { ...pool, close: async () => {} },
      readinessCheck: async () => {
        try {
          await pool.get('SELECT 1');
        } catch (error) {
          throw new Error(`database: PostgreSQL ${isDatabaseUnavailable(error) ? 'unreachable' : 'failing'} (${(error as Error).message})`);
        }
      },
      close: () => pool.close(),
    };
  }
  const legacy = openDatabase(join(dataDir, 'mds.db'));
  // Auth reaches mds.db through the storage port; the synchronous connection above serves only the legacy tag move.
  const auth = openSqliteDatabase(join(dataDir, 'mds.db'));
  return {
    auth,
    entities: openSqliteDatabase(join(dataDir, 'entities.db')),
    analytics: openSqliteDatabase(join(dataDir, 'analytics.db')),
    legacy,
    close: async () => {
      legacy.close();
      await auth.close();
    },
  };
}
