import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach } from 'vitest';
import { describeLineageGraphql } from './lineage-contract';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeLineageGraphql('SQLite', databases);
