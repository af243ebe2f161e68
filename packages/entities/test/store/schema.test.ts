import { describeMigrationsOfSchema } from '@mds/db/testing';
import { ENTITIES_SCHEMA } from '../../src/store/tables';

// Both folders were written by hand before the description.
describeMigrationsOfSchema('entities', ENTITIES_SCHEMA, new URL('../../migrations/', import.meta.url));
