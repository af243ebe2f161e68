import { applyMigrations, openDatabase } from '@mds/db';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const SQLITE_MIGRATIONS = fileURLToPath(new URL('../../migrations/sqlite/', import.meta.url));
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The migrations folder as an earlier version of mds shipped it: its journal up to and including `tag`. */
function folderUpTo(tag: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mds-migrations-'));
  dirs.push(dir);
  cpSync(SQLITE_MIGRATIONS, dir, { recursive: true });
  const journalFile = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, journal.entries.findIndex((entry) => entry.tag === tag) + 1);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

describe('an edge table written before the declaring entity was part of the key', () => {
  it('gives each edge its owner on upgrade (its source when it declared the edge itself) and keeps every edge', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-edges-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'entities.db'));
    applyMigrations(db, { owner: 'entities', folder: folderUpTo('0004_edge_lifecycle_owner') });
    const insert = db.prepare('INSERT INTO entity_relationship (source, aspect, type, destination, lifecycleowner) VALUES (?, ?, ?, ?, ?)');
    const B = 'urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)';
    const A = 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)';
    insert.run(B, 'upstreamLineage', 'DownstreamOf', A, null);
    insert.run(`urn:li:schemaField:(${B},id)`, 'upstreamLineage', 'DownstreamOf', `urn:li:schemaField:(${A},id)`, B);

    applyMigrations(db, { owner: 'entities', folder: SQLITE_MIGRATIONS });
    expect(db.prepare('SELECT source, destination, lifecycleowner FROM entity_relationship ORDER BY source').all()).toEqual([
      { source: B, destination: A, lifecycleowner: B },
      { source: `urn:li:schemaField:(${B},id)`, destination: `urn:li:schemaField:(${A},id)`, lifecycleowner: B },
    ]);
    db.close();
  });
});
