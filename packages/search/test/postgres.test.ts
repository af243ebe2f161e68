import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { createSqlSearchIndex } from '../src/index';
import { searchIndexContract, searchUpgradeContract } from './contract';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

searchIndexContract('PostgreSQL (tsvector)', async () => {
  const db = await databases.open();
  const index = createSqlSearchIndex(db);
  await index.migrate();
  return { db, index };
});
searchUpgradeContract('PostgreSQL (tsvector)', () => databases.open());
