import { postgresTestDatabases, schemaDescribed, schemaInDatabase } from '@mds/db/testing';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createSqlAspectStore } from '../../src/store/sql-store';
import { ENTITIES_SCHEMA } from '../../src/store/tables';

// Migration 0002 moves a PostgreSQL database an older mds created (createdon in milliseconds, keys collated "C", the
// key named metadata_aspect_v2_pkey) to DataHub's own layout of metadata_aspect_v2, every row kept.
const databases = postgresTestDatabases({ poolSize: 1 });
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const MIGRATIONS = fileURLToPath(new URL('../../migrations/postgres', import.meta.url));

/** The migrations folder as an mds before DataHub's layout shipped it: its first two migrations. */
function olderMigrations(): string {
  const folder = mkdtempSync(join(tmpdir(), 'mds-entities-migrations-'));
  mkdirSync(join(folder, 'meta'));
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, 2);
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  for (const { tag } of journal.entries) copyFileSync(join(MIGRATIONS, `${tag}.sql`), join(folder, `${tag}.sql`));
  return folder;
}

it("moves an older mds database to DataHub's layout, keeping every row and its moment to the millisecond", async () => {
  const db = await databases.open();
  await db.migrate({ owner: 'entities', folder: olderMigrations() });
  expect(
    await db.get(`SELECT data_type FROM information_schema.columns WHERE table_name = 'metadata_aspect_v2' AND column_name = 'createdon'`),
  ).toEqual({
    data_type: 'bigint',
  });
  const urn = 'urn:li:tag:kept';
  const rows = [
    [urn, 'tagKey', 0, '{"name":"kept"}', null, 1_700_000_000_123, 'urn:li:corpuser:a', null],
    [urn, 'tagProperties', 0, '{"name":"Kept","description":"second"}', '{"runId":"r2"}', 1_700_000_500_999, 'urn:li:corpuser:b', null],
    [
      urn,
      'tagProperties',
      1,
      '{"name":"Kept","description":"first"}',
      '{"runId":"r1"}',
      1_700_000_000_123,
      'urn:li:corpuser:a',
      'urn:li:corpuser:c',
    ],
  ];
  for (const row of rows) await db.run('INSERT INTO metadata_aspect_v2 VALUES (?, ?, ?, ?, ?, ?, ?, ?)', row);

  const store = createSqlAspectStore(db);
  await store.migrate();
  expect(await schemaInDatabase(db)).toEqual(schemaDescribed(ENTITIES_SCHEMA, 'postgres'));
  expect(await db.get(`SELECT conname FROM pg_constraint WHERE conrelid = 'metadata_aspect_v2'::regclass AND contype = 'p'`)).toEqual({
    conname: 'pk_metadata_aspect_v2',
  });
  expect((await store.versions(urn, 'tagProperties')).map((a) => [a.version, a.value, a.createdOn, a.createdBy])).toEqual([
    [0, { name: 'Kept', description: 'second' }, 1_700_000_500_999, 'urn:li:corpuser:b'],
    [1, { name: 'Kept', description: 'first' }, 1_700_000_000_123, 'urn:li:corpuser:a'],
  ]);
  expect(await db.get(`SELECT createdon::text AS at FROM metadata_aspect_v2 WHERE aspect = 'tagKey'`)).toEqual({
    at: '2023-11-14 22:13:20.123',
  });
  expect(await store.recent(5)).toEqual([{ urn, lastWritten: 1_700_000_500_999 }]);

  // Migrating again changes nothing.
  await store.migrate();
  expect(await schemaInDatabase(db)).toEqual(schemaDescribed(ENTITIES_SCHEMA, 'postgres'));
});
