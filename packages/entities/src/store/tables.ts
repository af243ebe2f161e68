import { defineTable } from '@mds/db';
import { timeseriesOutbox } from './outbox';

// The aspect store's tables, described once for both dialects (@mds/db's schema factory), named and shaped as
// DataHub's. The code speaks plain SQL through the storage port; drizzle-kit generates each dialect's migrations from
// the tables exported at the end (drizzle.sqlite.config.ts, drizzle.postgres.config.ts), and test/schema.test.ts
// checks both migrations folders create exactly these tables. Keys compare bytewise (`COLLATE "C"` on PostgreSQL), as
// on SQLite, whatever the database's locale.

/** Every version of every aspect: version 0 is the latest, 1..n the history (DataHub's `metadata_aspect_v2`). */
export const metadataAspectV2 = defineTable('metadata_aspect_v2', {
  columns: {
    urn: { type: 'text', length: 500, bytewise: true },
    aspect: { type: 'text', length: 200, bytewise: true },
    version: { type: 'bigint' },
    /** The aspect's JSON. */
    metadata: { type: 'text' },
    systemmetadata: { type: 'text', nullable: true },
    /** Milliseconds since the epoch. */
    createdon: { type: 'bigint' },
    createdby: { type: 'text', length: 255 },
    createdfor: { type: 'text', length: 255, nullable: true },
  },
  primaryKey: ['urn', 'aspect', 'version'],
});

/** The relationships the latest aspects declare, one row per edge, found from either end. */
export const entityRelationship = defineTable('entity_relationship', {
  columns: {
    source: { type: 'text', length: 500, bytewise: true },
    /** The aspect of `source` that declares the edge. */
    aspect: { type: 'text', length: 200, bytewise: true },
    type: { type: 'text', length: 100, bytewise: true },
    destination: { type: 'text', length: 500, bytewise: true },
  },
  primaryKey: ['source', 'aspect', 'type', 'destination'],
  indexes: [{ name: 'entity_relationship_destination', on: ['destination', 'type'] }],
});

export const ENTITIES_SCHEMA = [metadataAspectV2, entityRelationship, timeseriesOutbox] as const;

// What drizzle-kit reads: it takes the tables among a schema file's exports, each config those of its dialect.
export const { sqlite: metadataAspectV2Sqlite, postgres: metadataAspectV2Postgres } = metadataAspectV2;
export const { sqlite: entityRelationshipSqlite, postgres: entityRelationshipPostgres } = entityRelationship;
