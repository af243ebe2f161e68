import { afterEach } from 'vitest';
import { openSqliteDatabase, type SqlDatabase } from '../src/index';
import { tempDbFile } from './helpers';
import { describeSqlDatabaseContract } from './port-contract';

const opened: SqlDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
});

describeSqlDatabaseContract('SQLite', async () => {
  const db = openSqliteDatabase(tempDbFile());
  opened.push(db);
  return db;
});
