/**
 * The storage port: what a package needs of a SQL database, on SQLite (embedded) and PostgreSQL (replicas) alike.
 * Every call is asynchronous, so one code path serves a driver that answers in-process and one that answers over a
 * socket. Statements use `?` placeholders on every dialect; an adapter rewrites them where its driver wants others.
 */
export interface SqlExecutor {
  readonly dialect: SqlDialect;
  all<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  get<Row>(sql: string, params?: readonly unknown[]): Promise<Row | undefined>;
  run(sql: string, params?: readonly unknown[]): Promise<{ changes: number }>;
}

export type SqlDialect = 'sqlite' | 'postgres';

export interface TransactionOptions {
  /**
   * What the work owns: it reads and writes only rows of these keys (an entity's urn), besides rows shared by all that
   * it inserts skipping a conflict (`ON CONFLICT DO NOTHING`) and then reads. The transaction is then serialised
   * against those holding one of its keys only. Without keys, every transaction is as if it ran alone. On SQLite,
   * where one writer runs transactions one after another, the keys change nothing; on PostgreSQL they spare writes of
   * different entities the serialization failures SERIALIZABLE raises for rows merely near each other in an index.
   */
  lockKeys?: readonly string[];
}

export interface SqlDatabase extends SqlExecutor {
  /**
   * Runs `work` atomically: committed when it resolves, undone when it rejects (the rejection is passed on). Only
   * after the commit is durable does the promise resolve. Statements outside a transaction never see its uncommitted
   * rows. `tx` is valid only until `work` settles. An adapter may run `work` more than once (undoing all but the last
   * run), so it must have no effect outside the database. After a statement fails, `work` must not go on (on
   * PostgreSQL the transaction is then unusable, and it rejects even if `work` caught the error): a conflict that is
   * expected is written `ON CONFLICT`, which every dialect skips alone.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * A value that moves whenever a commit, by any connection or process, may have changed the database; absent when
   * the adapter cannot tell cheaply, and then nothing read from it may be cached. Lets a cache be never stale.
   */
  readonly commitStamp?: () => number;
  /** Applies a package's migrations for this dialect (idempotent; refuses a database written by a newer mds). */
  migrate(options: { owner: string; folder: string }): Promise<void>;
  close(): Promise<void>;
}
