import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createSqlSearchIndex } from '../src/index';
import { searchIndexContract } from './contract';

const opened: { db: SqlDatabase; dir: string }[] = [];
afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

searchIndexContract('SQLite (FTS5)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-search-'));
  const db = openSqliteDatabase(join(dir, 'search.db'));
  opened.push({ db, dir });
  const index = createSqlSearchIndex(db);
  await index.migrate();
  return { db, index };
});
