import pg from 'pg';

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

let admin: pg.Client | undefined;
let adminReady: Promise<pg.Client> | undefined;
let created = 0;

/** One connection per test process, to the server's own database, for CREATE and DROP DATABASE. */
function adminClient(): Promise<pg.Client> {
  adminReady ??= (async () => {
    admin = new pg.Client({ connectionString: testPostgresUrl() });
    await admin.connect();
    return admin;
  })();
  return adminReady;
}

/** The URL of `url` with its database name replaced. */
const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
};

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database (a copy of template0); `drop` removes it, ending any connection still open to it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const client = await adminClient();
  const name = `mds_test_${process.pid}_${++created}_${Math.random().toString(36).slice(2, 8)}`;
  await client.query(`CREATE DATABASE ${name} TEMPLATE template0`);
  return {
    url: withDatabase(testPostgresUrl(), name),
    drop: async () => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)),
  };
}

/**
 * Databases made for a test file: `create()` gives a fresh one, `dropAll()` (in afterAll) drops every one of them and
 * closes the admin connection.
 */
export function testDatabases() {
  const made: TestDatabase[] = [];
  return {
    async create(): Promise<string> {
      const database = await createTestDatabase();
      made.push(database);
      return database.url;
    },
    async dropAll(): Promise<void> {
      for (const database of made.splice(0)) await database.drop();
      const client = admin;
      admin = undefined;
      adminReady = undefined;
      await client?.end();
    },
  };
}
