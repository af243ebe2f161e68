import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeAuthContract } from './auth-contract';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeAuthContract('PostgreSQL', databases);
