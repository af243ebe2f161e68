import { migrationsFolderProblems, pendingMigration, postgresTestDatabases, schemaDescribed, schemaInDatabase, sqliteTestDatabases } from '@mds/db/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ENTITIES_SCHEMA } from '../src/db/schema';

// The migrations of each dialect create exactly the tables src/db/schema.ts describes (both folders were written by
// hand before the description), and drizzle-kit has nothing left to generate from it.
const databases = { sqlite: sqliteTestDatabases(), postgres: postgresTestDatabases({ poolSize: 1 }) };
afterEach(async () => {
  await databases.sqlite.closeOpened();
  await databases.postgres.closeOpened();
});
afterAll(async () => {
  await databases.sqlite.dispose();
  await databases.postgres.dispose();
});

describe.each(['sqlite', 'postgres'] as const)('entities migrations on %s', (dialect) => {
  const folder = fileURLToPath(new URL(`../migrations/${dialect}`, import.meta.url));

  it('create the tables the description says, on a fresh database', async () => {
    const db = await databases[dialect].open();
    await db.migrate({ owner: 'entities', folder });
    expect(await schemaInDatabase(db)).toEqual(schemaDescribed(ENTITIES_SCHEMA, dialect));
  });

  it('are in order, with nothing left to generate', async () => {
    expect(migrationsFolderProblems(folder)).toEqual([]);
    expect(await pendingMigration(ENTITIES_SCHEMA, dialect, folder)).toEqual([]);
  });
});
