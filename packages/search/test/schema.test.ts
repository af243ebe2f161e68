import { migrationsFolderProblems, pendingMigration, postgresTestDatabases, schemaDescribed, schemaInDatabase, sqliteTestDatabases } from '@mds/db/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { HAND_WRITTEN_TABLES, SEARCH_SCHEMA } from '../src/db/schema';

// The migrations of each dialect create exactly the tables src/db/schema.ts describes (both were written by hand
// before the description), besides search_text, the text table each dialect makes its own way, and drizzle-kit has
// nothing left to generate from the description.
const databases = { sqlite: sqliteTestDatabases(), postgres: postgresTestDatabases({ poolSize: 1 }) };
afterEach(async () => {
  await databases.sqlite.closeOpened();
  await databases.postgres.closeOpened();
});
afterAll(async () => {
  await databases.sqlite.dispose();
  await databases.postgres.dispose();
});

describe.each(['sqlite', 'postgres'] as const)('search migrations on %s', (dialect) => {
  const folder = fileURLToPath(new URL(`../migrations/${dialect}`, import.meta.url));

  it('create the tables the description says, and search_text, on a fresh database', async () => {
    const db = await databases[dialect].open();
    await db.migrate({ owner: 'search', folder });
    expect(await schemaInDatabase(db, { handWritten: HAND_WRITTEN_TABLES })).toEqual(schemaDescribed(SEARCH_SCHEMA, dialect, { handWritten: HAND_WRITTEN_TABLES }));
  });

  it('are in order, with nothing left to generate', async () => {
    expect(migrationsFolderProblems(folder)).toEqual([]);
    expect(await pendingMigration(SEARCH_SCHEMA, dialect, folder)).toEqual([]);
  });
});
