import { execFile } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/** A PostgreSQL server of one test file's own, which it may stop and start (the shared MDS_TEST_POSTGRES_URL one it must not). */
export interface OwnPostgresServer {
  /** Its `postgres` database, as the superuser `postgres`. */
  url: string;
  /** `pg_ctl stop`: `fast` ends every session cleanly, `immediate` as a crash would; connections are refused until start(). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and deletes its cluster. */
  dispose(): Promise<void>;
}

/**
 * A fresh cluster of the local PostgreSQL (PG_BIN, else Debian's 15), set up as scripts/test-env.mjs sets up the
 * throwaway one: in a temporary directory, on 127.0.0.1 only, trusting local connections, fsync off; as the `postgres`
 * user when running as root. Without the binaries the test fails, saying how to get them, rather than being skipped.
 */
export async function startOwnPostgresServer(): Promise<OwnPostgresServer> {
  testPostgresUrl(); // outside the test command, the message every PostgreSQL test gives
  const bin = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
  try {
    accessSync(join(bin, 'pg_ctl'), constants.X_OK);
  } catch {
    throw new Error(
      `This PostgreSQL test starts and stops a server of its own, and found no ${bin}/pg_ctl: install Debian's postgresql (\`sudo apt-get install -y postgresql\`) or set PG_BIN to the directory of initdb and pg_ctl.`,
    );
  }
  const root = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    promisify(execFile)(root ? 'runuser' : join(bin, command), root ? ['-u', 'postgres', '--', join(bin, command), ...args] : args);
  const dir = mkdtempSync(join(tmpdir(), 'mds-own-postgres-'));
  if (root) {
    const id = async (flag: string) => Number((await promisify(execFile)('id', [flag, 'postgres'])).stdout);
    chownSync(dir, await id('-u'), await id('-g'));
  }
  const data = join(dir, 'data');
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c full_page_writes=off`;
  const start = async () =>
    void (await run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']));
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => void (await run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']));
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async dispose() {
      await stop('immediate').catch(() => {}); // already stopped (a test failed while it was down): nothing to stop
      rmSync(dir, { recursive: true, force: true });
    },
  };
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
export {
  HAND_WRITTEN,
  migrationsFolderProblems,
  pendingMigration,
  schemaDescribed,
  schemaInDatabase,
  type ColumnShape,
  type SchemaShape,
  type TableShape,
} from './schema-check';
export { databasesOfBothDialects, describeMigrationsOfSchema } from './migrations-suite';
