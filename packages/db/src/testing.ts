import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { SqlDatabase } from './port';
import { openPostgresDatabase } from './postgres-adapter';
import { openSqliteDatabase } from './sqlite-adapter';

/**
 * Test support: a PostgreSQL database of its own for each test file (or test), copied from a template in ~25 ms
 * and dropped after. The server is MDS_TEST_POSTGRES_URL, which the test command provides (scripts/test-env.mjs);
 * without it a PostgreSQL test fails, saying how to provide one, rather than being skipped.
 */
export function testPostgresUrl(): string {
  const url = process.env.MDS_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error(
      'The PostgreSQL tests need a server: run them through `pnpm test` or `node scripts/test-env.mjs <command>` (both start a ' +
        "throwaway one, installing Debian's postgresql as root), or set MDS_TEST_POSTGRES_URL=postgres://user:password@host:port/db " +
        'to a server where that role may CREATE DATABASE.',
    );
  }
  return url;
}

/** The URL of `url` with its database name replaced. */
const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

let created = 0;

/**
 * Databases made for a test file, over one connection of its own to the server: `create()` gives the URL of a new,
 * empty one (a copy of template0), `drop(url)` removes one (ending connections still open to it), `dropAll()` (in
 * afterAll) every one left, and closes that connection.
 */
export function testDatabases() {
  let admin: Promise<pg.Client> | undefined;
  const connected = () =>
    (admin ??= (async () => {
      const client = new pg.Client({ connectionString: testPostgresUrl() });
      await client.connect();
      return client;
    })());
  const names = new Map<string, string>();
  const drop = async (url: string) => {
    const name = names.get(url);
    if (name === undefined) return;
    names.delete(url);
    await (await connected()).query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  };
  return {
    async create(): Promise<string> {
      const name = `mds_test_${process.pid}_${++created}_${Math.random().toString(36).slice(2, 8)}`;
      await (await connected()).query(`CREATE DATABASE ${name} TEMPLATE template0`);
      const url = withDatabase(testPostgresUrl(), name);
      names.set(url, name);
      return url;
    },
    drop,
    async dropAll(): Promise<void> {
      for (const url of [...names.keys()]) await drop(url);
      const client = await admin;
      admin = undefined;
      await client?.end();
    },
  };
}

/**
 * Databases for a contract suite run on one dialect: `open()` a fresh one, `openAgain(db)` another handle on the same
 * database (a second replica). `closeOpened` (afterEach) closes every handle; `dispose` (afterAll) also removes the
 * databases.
 */
export interface TestSqlDatabases {
  open(): Promise<SqlDatabase>;
  openAgain(db: SqlDatabase): Promise<SqlDatabase>;
  closeOpened(): Promise<void>;
  dispose(): Promise<void>;
}

/** Handles over `where` (a file, a URL) opened by `connect`, closed and removed by the returned functions. */
function handles(connect: (where: string) => SqlDatabase, create: () => Promise<string>, remove: () => Promise<void>): TestSqlDatabases {
  const opened: SqlDatabase[] = [];
  const places = new WeakMap<SqlDatabase, string>();
  const openAt = (where: string) => {
    const db = connect(where);
    opened.push(db);
    places.set(db, where);
    return db;
  };
  const closeOpened = async () => {
    for (const db of opened.splice(0)) await db.close();
  };
  return {
    open: async () => openAt(await create()),
    openAgain: async (db) => openAt(places.get(db)!),
    closeOpened,
    dispose: async () => {
      await closeOpened();
      await remove();
    },
  };
}

/** SQLite files in a temporary directory. */
export function sqliteTestDatabases(): TestSqlDatabases {
  let dir: string | undefined;
  let files = 0;
  return handles(
    (file) => openSqliteDatabase(file),
    async () => join((dir ??= mkdtempSync(join(tmpdir(), 'mds-test-sqlite-'))), `${++files}.db`),
    async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  );
}

/** PostgreSQL databases on the test server, each handle a pool of `poolSize` connections. */
export function postgresTestDatabases(options: { poolSize?: number } = {}): TestSqlDatabases {
  const databases = testDatabases();
  return handles((url) => openPostgresDatabase({ url, poolSize: options.poolSize }), databases.create, databases.dropAll);
}
