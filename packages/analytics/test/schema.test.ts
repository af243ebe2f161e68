import { describeMigrationsOfSchema } from '@mds/db/testing';
import { ANALYTICS_SCHEMA } from '../src/db/schema';

describeMigrationsOfSchema('analytics', ANALYTICS_SCHEMA, new URL('../migrations/', import.meta.url));
