import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { DatabaseTooNewError, migrationsTable, newestKnownMigration } from './migrations';
import { createStatements } from './prepared';
import { createHash } from 'node:crypto';
import type { SqlDatabase, SqlExecutor, TransactionOptions } from './port';
import { isDatabaseUnavailable } from './unavailable';

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` (TLS through its `sslmode`, or PGSSLMODE). */
  url: string;
  /** Connections of this process's pool; a transaction holds one until it commits. */
  poolSize?: number;
  /** How long to wait for a connection before a statement fails (the server down or the pool exhausted). */
  connectTimeoutMs?: number;
}

export const DEFAULT_POOL_SIZE = 10;
/** Attempts of a transaction that keeps meeting serialization failures before its last failure is passed on. */
const MAX_ATTEMPTS = 20;
/** SQLSTATEs of a transaction PostgreSQL undid because of a concurrent one: running it again may succeed. */
const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected
/**
 * The server ended the connection (57P01 admin_shutdown: pg_terminate_backend, a restart) or the client already knew
 * it closed: a statement failing so was not committed — an autocommit statement the backend was running is undone.
 */
const endedBeforeRunning = (error: unknown) => {
  const { code, message = '' } = (error ?? {}) as { code?: string; message?: string };
  return code === '57P01' || /not queryable/i.test(message);
};
const isConflict = (error: unknown) => RETRYABLE.has((error as { code?: string } | undefined)?.code ?? '');
/**
 * The advisory lock ids of keys: 64 bits of each key's SHA-1, distinct and in ascending order, so that two
 * transactions always take the locks they share in the same order and cannot wait for each other in a circle.
 */
function lockIds(keys: readonly string[]): string[] {
  const ids = new Set(keys.map((key) => BigInt.asIntN(64, createHash('sha1').update(key).digest().readBigUInt64BE(0))));
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
}

/** One lock for every package's migrations: replicas starting together apply them one at a time. */
const MIGRATION_LOCK = 'mds:migrations';

// bigint (count(*), sum(), bigint columns) as a number, as SQLite gives it: every value mds stores fits in 2^53.
const INT8_OID = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The storage port on PostgreSQL: one pool per process (a replica), statements outside a transaction on any pooled
 * connection, a transaction on one connection at SERIALIZABLE isolation. SERIALIZABLE gives every caller what
 * SQLite's single writer gives it (a read-then-write is never overtaken, two creations of one key never both
 * succeed) without locking statements of its own; PostgreSQL instead undoes one of two transactions that would
 * not have been serial, and that one is run again here, as the port allows. SSI locks index pages, so writes of
 * rows that are merely near each other collide too (3 in 4 of 1,000 concurrent writes of distinct entities did): a
 * transaction that names the keys it owns (`lockKeys`) runs at READ COMMITTED instead, after taking an advisory lock
 * per key, and waits only for holders of the same keys.
 *
 * No commit stamp: another replica's commit cannot be seen cheaply, so nothing read through it is cached.
 */
export function openPostgresDatabase(options: PostgresOptions): SqlDatabase {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    types,
  });
  // A pooled connection the server dropped while idle (a restart, pg_terminate_backend) is discarded by the pool,
  // and the next statement opens a new one: nothing to do but keep the process alive.
  pool.on('error', () => {});
  // A client handed to a waiting connect() has lost the pool's listener before the caller adds its own; a termination
  // arriving in between would be an unhandled 'error' event (a crash). Its next statement fails, and is retried or 503.
  pool.on('connect', (client) => client.on('error', () => {}));
  const statements = createStatements(); // numbered placeholders; repeated statements prepared (prepared.ts)
  /** Statements on the pool or on one connection; `failed` hears of every statement that fails. */
  const executor = (on: pg.Pool | pg.PoolClient, failed: (error: unknown) => void = () => {}): SqlExecutor => {
    const query = async (sql: string, params?: readonly unknown[]) => {
      try {
        return await statements.query(on, sql, params).catch((error: unknown) => {
          // A pooled connection the server ended while idle, before the pool heard of it: the statement never ran
          // (or was undone with its connection), so on the pool it runs once more, on a live connection.
          if (on === pool && endedBeforeRunning(error)) return statements.query(on, sql, params);
          throw error;
        });
      } catch (error) {
        failed(error);
        throw error;
      }
    };
    return {
      dialect: 'postgres',
      all: async <Row>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows as Row[],
      get: async <Row>(sql: string, params?: readonly unknown[]) => (await query(sql, params)).rows[0] as Row | undefined,
      run: async (sql: string, params?: readonly unknown[]) => ({ changes: (await query(sql, params)).rowCount ?? 0 }),
    };
  };

  // Transactions run again one at a time: 50 writers of one row would otherwise collide again and again, each
  // round committing one of them; in the lane they no longer collide with one another, only with newcomers and
  // other replicas (whose lanes a random pause keeps apart).
  let retryLane: Promise<unknown> = Promise.resolve();
  const inRetryLane = <R>(run: () => Promise<R>): Promise<R> => {
    const result = retryLane.then(run);
    retryLane = result.catch(() => {});
    return result;
  };

  /**
   * One run of `work`; `retryable` when PostgreSQL undid it for a concurrent transaction, whatever `work` threw, or
   * when its connection was lost before COMMIT was sent (nothing of it can have committed). A connection lost during
   * COMMIT leaves the outcome unknown: that is passed on, never run again.
   */
  async function attempt<T>(
    work: (tx: SqlExecutor) => Promise<T>,
    locks: readonly string[] | undefined,
  ): Promise<{ ok: true; value: T } | { ok: false; error: unknown; retryable: boolean }> {
    const client = await pool.connect();
    let broken: Error | undefined;
    // The server ending the connection mid-transaction is heard here (unheard, the error event would end the process);
    // the statement waiting on it fails too, and the connection is not given back to the pool.
    const lost = (error: Error) => (broken = error);
    client.on('error', lost);
    // After a failed statement PostgreSQL ignores every other one of the transaction, and COMMIT rolls it back
    // without an error: a transaction whose work caught such a failure must not be reported committed.
    let failed: { error: unknown } | undefined;
    const tx = executor(client, (error) => (failed ??= { error }));
    let committing = false;
    try {
      if (locks) {
        // Each statement sees what committed before it began, and the keys' holders wait for one another.
        await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        await client.query('SELECT pg_advisory_xact_lock(key) FROM unnest($1::bigint[]) AS key', [locks]);
      } else {
        await client.query('BEGIN ISOLATION LEVEL SERIALIZABLE');
      }
      const value = await work(tx);
      if (failed) throw failed.error;
      committing = true;
      await client.query('COMMIT');
      return { ok: true, value };
    } catch (error) {
      // A connection that cannot even roll back (the server went away) is not given back to the pool.
      await client.query('ROLLBACK').catch((rollbackFailed: Error) => (broken = rollbackFailed));
      const lostBeforeCommit = !committing && [error, failed?.error].some(isDatabaseUnavailable);
      return { ok: false, error, retryable: lostBeforeCommit || [error, failed?.error].some(isConflict) };
    } finally {
      client.off('error', lost);
      client.release(broken);
    }
  }

  return {
    ...executor(pool),
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const locks = options.lockKeys && lockIds(options.lockKeys);
      let outcome = await attempt(work, locks);
      for (let attempts = 1; !outcome.ok; attempts++) {
        if (!outcome.retryable || attempts >= MAX_ATTEMPTS) throw outcome.error;
        if (attempts > 1) await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** attempts, 50)));
        outcome = await inRetryLane(() => attempt(work, locks));
      }
      return outcome.value;
    },
    async migrate({ owner, folder }) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK]);
        try {
          const table = migrationsTable(owner);
          const { rows } = await client.query<{ schema: string; applied: string | null }>(
            'SELECT current_schema() AS schema, to_regclass(quote_ident(current_schema()) || $1) AS applied',
            [`.${table}`],
          );
          const { schema, applied } = rows[0]!;
          if (applied) {
            const newest = (await client.query<{ newest: number | null }>(`SELECT max(created_at) AS newest FROM "${schema}"."${table}"`))
              .rows[0]!.newest;
            if ((newest ?? 0) > newestKnownMigration(folder)) {
              throw new DatabaseTooNewError(`database ${client.database}`, owner, 'point DATABASE_URL at another database');
            }
          }
          await migrate(drizzle({ client }), { migrationsFolder: folder, migrationsTable: table, migrationsSchema: schema });
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK]);
        }
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
