import { applyMigrations } from '@mds/db';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTagStore } from '../src/index';
import { tempDatabase } from './fixtures';

const MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
const alice = 'urn:li:corpuser:alice';

/** The migrations folder as an older mds shipped it, its first `count` migrations only, written beside `file`. */
function olderMigrations(count: number, file: string): string {
  const folder = join(dirname(file), 'older-migrations');
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: unknown[] };
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
  return folder;
}

describe('a database from before the store kept the index (triggers, migration 0001)', () => {
  it('keeps finding its tags, and re-indexes them correctly when they change', () => {
    const { db, file } = tempDatabase();
    applyMigrations(db, { folder: olderMigrations(2, file), owner: 'tags' });
    const insert = db.prepare(
      `INSERT INTO tags (id, doc_id, name, description, created_at, created_by, updated_at, updated_by) VALUES (?, ?, ?, ?, 1, ?, 1, ?)`,
    );
    insert.run('ledger', 1, 'Ledger', 'General accounts', alice, alice); // indexed by the old trigger
    insert.run('pii', 2, 'PII', 'Personal data', alice, alice);

    const store = createTagStore(db);
    const ids = (query: string) => store.search({ query }).hits.map((hit) => hit.tag.id);
    expect(ids('ledger')).toEqual(['ledger']);
    store.update('urn:li:tag:ledger', { name: 'Journal', description: 'Bookkeeping' }, alice);
    store.delete('urn:li:tag:pii');
    store.create({ id: 'gdpr', name: 'GDPR', description: 'Personal data rules' }, alice);
    expect(ids('ledger')).toEqual([]);
    expect(ids('general')).toEqual([]);
    expect(ids('journal bookkeeping')).toEqual(['ledger']);
    expect(ids('personal')).toEqual(['gdpr']);
    // FTS5's own check of the index against the tags table (rank 1: external content included).
    expect(() => db.prepare(`INSERT INTO tags_fts (tags_fts, rank) VALUES ('integrity-check', 1)`).run()).not.toThrow();
  });
});
