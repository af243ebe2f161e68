import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeAspectStoreContract } from './aspect-store-contract';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeAspectStoreContract('SQLite', databases);
