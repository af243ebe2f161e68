import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeServiceContract } from './service-contract';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeServiceContract('SQLite', databases);
