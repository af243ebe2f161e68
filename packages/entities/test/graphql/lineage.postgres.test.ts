import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeLineageGraphql } from './lineage-contract';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeLineageGraphql('PostgreSQL', databases);
