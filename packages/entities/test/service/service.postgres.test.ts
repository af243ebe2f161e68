import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeServiceContract } from './service-contract';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeServiceContract('PostgreSQL', databases);
