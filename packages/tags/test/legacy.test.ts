import { applyMigrations } from '@mds/db';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTags } from '../src/index';
import { legacyDatabase, openEntities, tempFile } from './fixtures';

/** The tags tables as the last mds that kept them apart shipped them (migrations 0000–0002 of @mds/tags). */
const LEGACY_MIGRATIONS = fileURLToPath(new URL('./legacy/migrations', import.meta.url));
const alice = 'urn:li:corpuser:alice';
const bob = 'urn:li:corpuser:bob';

/** An mds.db as an older mds left it: two tags in its own tables. */
function olderInstallation() {
  const legacy = legacyDatabase();
  applyMigrations(legacy, { folder: LEGACY_MIGRATIONS, owner: 'tags' });
  const insert = legacy.prepare(
    `INSERT INTO tags (id, doc_id, name, description, color_hex, created_at, created_by, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  insert.run('ledger', 1, 'Ledger', 'General accounts', '#abc', 1_000, alice, 2_000, bob);
  insert.run('pii', 2, 'PII', null, null, 3_000, bob, 3_000, bob);
  legacy.prepare(`INSERT INTO tags_fts (rowid, name, description) VALUES (1, 'Ledger', 'General accounts'), (2, 'PII', NULL)`).run();
  return legacy;
}

const tableNames = (db: ReturnType<typeof legacyDatabase>) =>
  (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%tags%'`).all() as { name: string }[]).map((r) => r.name);

describe('tags an older mds kept in mds.db', () => {
  it('move into the aspect store on start with their stamps and owners, and the old tables go', async () => {
    const legacy = olderInstallation();
    const entities = await openEntities(tempFile('entities.db'));
    const { service: store } = await createTags({ entities, legacy });

    expect(await store.get('urn:li:tag:ledger')).toEqual({
      urn: 'urn:li:tag:ledger',
      id: 'ledger',
      name: 'Ledger',
      description: 'General accounts',
      colorHex: '#abc',
      ownership: { owners: [{ owner: alice, type: 'TECHNICAL_OWNER' }], lastModified: { time: 1_000, actor: alice } },
      created: { time: 1_000, actor: alice },
      lastModified: { time: 2_000, actor: bob },
    });
    expect(await store.get('urn:li:tag:pii')).toMatchObject({ name: 'PII', description: null, created: { time: 3_000, actor: bob } });
    expect((await store.search({ query: 'general' })).hits.map((hit) => hit.tag.id)).toEqual(['ledger']);
    expect((await store.search()).total).toBe(2);
    expect((await entities.store.get('urn:li:tag:ledger', 'tagProperties'))?.value).toEqual({
      name: 'Ledger',
      description: 'General accounts',
      colorHex: '#abc',
    });
    expect(tableNames(legacy)).toEqual([]);
  });

  it('is a no-op on the next start, and a move cut short is finished without changing what moved', async () => {
    const legacy = olderInstallation();
    const file = tempFile('entities.db');
    const entities = await openEntities(file);
    await createTags({ entities, legacy });
    const before = await entities.store.versions('urn:li:tag:ledger', 'tagProperties');
    // Started again with the old tables back (as after a crash before they were dropped): nothing new is written.
    applyMigrations(legacy, { folder: LEGACY_MIGRATIONS, owner: 'tags' });
    legacy
      .prepare(
        `INSERT INTO tags (id, doc_id, name, description, color_hex, created_at, created_by, updated_at, updated_by) VALUES ('ledger', 1, 'Ledger', 'General accounts', '#abc', 1000, ?, 2000, ?)`,
      )
      .run(alice, bob);
    const { service: store } = await createTags({ entities: await openEntities(file), legacy });
    expect(await entities.store.versions('urn:li:tag:ledger', 'tagProperties')).toEqual(before);
    expect((await store.search()).total).toBe(2);
    expect(tableNames(legacy)).toEqual([]);
    await createTags({ entities, legacy });
    expect((await store.search()).total).toBe(2);
  });
});
