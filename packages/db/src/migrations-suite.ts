import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { migrationsFolderProblems, pendingMigration, schemaDescribed, schemaInDatabase } from './schema-check';
import type { AnyTableDescription } from './schema-factory';
import { postgresTestDatabases, sqliteTestDatabases } from './testing';

/** Fresh databases of each dialect for the calling test file, closed after each test and dropped after the file. */
export function databasesOfBothDialects() {
  const databases = { sqlite: sqliteTestDatabases(), postgres: postgresTestDatabases({ poolSize: 1 }) };
  afterEach(async () => {
    await databases.sqlite.closeOpened();
    await databases.postgres.closeOpened();
  });
  afterAll(async () => {
    await databases.sqlite.dispose();
    await databases.postgres.dispose();
  });
  return databases;
}

/**
 * The test of a package that describes its tables (`defineTable`): on SQLite and on PostgreSQL, its migrations
 * (`<migrations>/sqlite`, `<migrations>/postgres`, hand-written or generated) create exactly the described tables on a
 * fresh database, besides `handWritten` ones that exist but each dialect makes its own way; the migrations are in
 * date order; and drizzle-kit has nothing left to generate from the description.
 */
export function describeMigrationsOfSchema(
  owner: string,
  schema: readonly AnyTableDescription[],
  migrations: URL,
  options: { handWritten?: readonly string[] } = {},
): void {
  const databases = databasesOfBothDialects();
  describe.each(['sqlite', 'postgres'] as const)(`${owner} migrations on %s`, (dialect) => {
    const folder = fileURLToPath(new URL(dialect, migrations));

    it('create the tables the description says, on a fresh database', async () => {
      const db = await databases[dialect].open();
      await db.migrate({ owner, folder });
      expect(await schemaInDatabase(db, options)).toEqual(schemaDescribed(schema, dialect, options));
    });

    it('are in order, with nothing left to generate', async () => {
      expect(migrationsFolderProblems(folder)).toEqual([]);
      expect(await pendingMigration(schema, dialect, folder)).toEqual([]);
    });
  });
}
