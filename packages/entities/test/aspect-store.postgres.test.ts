import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeAspectStoreContract } from './aspect-store-contract';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeAspectStoreContract('PostgreSQL', databases);
