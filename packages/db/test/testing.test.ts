import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { testDatabases, testPostgresUrl } from '../src/testing';

const databases = testDatabases();
afterAll(() => databases.dropAll());

/** Runs `sql` on a connection to `url`. */
async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('PostgreSQL test databases', () => {
  it('gives each caller a database of its own, empty, and drops it after', async () => {
    const [a, b] = [await databases.create(), await databases.create()];
    expect(a).not.toBe(b);
    await query(a, 'CREATE TABLE mine (id integer)');
    expect(await query(b, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'")).toEqual([{ n: 0 }]);

    const name = new URL(a).pathname.slice(1);
    await databases.drop(a);
    expect(await query(testPostgresUrl(), `SELECT count(*)::int AS n FROM pg_database WHERE datname = '${name}'`)).toEqual([{ n: 0 }]);
  });

  it('fails, saying how to provide a server, when none is given', () => {
    const given = process.env.MDS_TEST_POSTGRES_URL;
    delete process.env.MDS_TEST_POSTGRES_URL;
    try {
      expect(() => testPostgresUrl()).toThrow(/pnpm test.*set MDS_TEST_POSTGRES_URL=postgres:\/\//s);
    } finally {
      process.env.MDS_TEST_POSTGRES_URL = given;
    }
  });
});
