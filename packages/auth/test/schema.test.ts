import { describeMigrationsOfSchema } from '@mds/db/testing';
import { AUTH_SCHEMA } from '../src/db/schema';

// Those of migrations/postgres were written by hand.
describeMigrationsOfSchema('auth', AUTH_SCHEMA, new URL('../migrations/', import.meta.url));
