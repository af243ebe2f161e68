import { describeMigrationsOfSchema } from '@mds/db/testing';
import { HAND_WRITTEN_TABLES, SEARCH_SCHEMA } from '../src/db/schema';

// Both folders were written by hand before the description; search_text is the text table each dialect makes its own
// way (FTS5, a tsvector under GIN), checked only to exist.
describeMigrationsOfSchema('search', SEARCH_SCHEMA, new URL('../migrations/', import.meta.url), { handWritten: HAND_WRITTEN_TABLES });
