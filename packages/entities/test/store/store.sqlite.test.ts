import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeLineageContract } from './lineage-contract';
import { describeStoreContract } from './store-contract';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeStoreContract('SQLite', databases);
describeLineageContract('SQLite', databases);
