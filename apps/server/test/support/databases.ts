import { testDatabases } from '@mds/db/testing';
import { afterAll } from 'vitest';

/**
 * The databases a server suite runs on, for `describe.each`: SQLite (the default: no setting) and a PostgreSQL
 * database of the file's own (`DATABASE_URL`), dropped when the file ends. Each entry gives the environment to start
 * the server with.
 */
export function serverDatabases() {
  const postgres = testDatabases();
  afterAll(postgres.dropAll);
  return [
    ['SQLite', async (): Promise<Record<string, string>> => ({})],
    ['PostgreSQL', async (): Promise<Record<string, string>> => ({ DATABASE_URL: await postgres.create() })],
  ] as const;
}
