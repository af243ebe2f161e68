import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeAuthContract } from './auth-contract';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeAuthContract('SQLite', databases);
