import { defineTable } from '@mds/db';
import { timeseriesOutbox } from './outbox';

// The aspect store's tables, described once for both dialects (@mds/db's schema factory). The code speaks plain SQL
// through the storage port; drizzle-kit generates each dialect's migrations from the tables exported at the end
// (drizzle.sqlite.config.ts, drizzle.postgres.config.ts), and test/store/schema.test.ts checks both migrations folders
// create exactly these tables.

/**
 * Every version of every aspect: version 0 is the latest, 1..n the history. On PostgreSQL exactly DataHub's own
 * `metadata_aspect_v2` (docker/postgres-setup/init.sql at DataHub's pinned commit): its column names and types,
 * `createdon` a `timestamp`, the key `pk_metadata_aspect_v2`, the index `timeindex`, the database's own collation, so
 * that a database restored from a DataHub deployment is opened as it is (migration 0002 moves an older mds database
 * to this layout). mds keeps nothing of its own in it. SQLite keeps mds's layout: `createdon` in milliseconds.
 */
export const metadataAspectV2 = defineTable('metadata_aspect_v2', {
  columns: {
    urn: { type: 'text', length: 500 },
    aspect: { type: 'text', length: 200 },
    version: { type: 'bigint' },
    /** The aspect's JSON. */
    metadata: { type: 'text' },
    systemmetadata: { type: 'text', nullable: true },
    createdon: { type: 'timestamp' },
    createdby: { type: 'text', length: 255 },
    createdfor: { type: 'text', length: 255, nullable: true },
  },
  primaryKey: ['urn', 'aspect', 'version'],
  primaryKeyName: 'pk_metadata_aspect_v2',
  indexes: [{ name: 'timeindex', on: ['createdon'], onlyOn: 'postgres' }],
});

/**
 * The relationships the latest aspects declare, one row per edge, found from either end: mds's own table, beside
 * DataHub's. Its keys compare bytewise (`COLLATE "C"` on PostgreSQL), as on SQLite, whatever the database's locale.
 */
export const entityRelationship = defineTable('entity_relationship', {
  columns: {
    source: { type: 'text', length: 500, bytewise: true },
    /** The aspect of `source` that declares the edge. */
    aspect: { type: 'text', length: 200, bytewise: true },
    type: { type: 'text', length: 100, bytewise: true },
    destination: { type: 'text', length: 500, bytewise: true },
    /** When the edge was made and last changed, epoch milliseconds, when the aspect says (`created/time` …): lineage's time bounds. */
    createdon: { type: 'bigint', nullable: true },
    createdactor: { type: 'text', length: 500, nullable: true },
    updatedon: { type: 'bigint', nullable: true },
    updatedactor: { type: 'text', length: 500, nullable: true },
    /** An edge drawn by hand (its properties' `source` is `UI`): time bounds never hide it. */
    manual: { type: 'boolean', nullable: true },
    /**
     * The entity whose aspect declares the edge (DataHub's lifecycle owner of an edge): the source itself, or another
     * entity for an edge between two others (column-level lineage: a field `DownstreamOf` the field it is computed from,
     * declared by a dataset's `upstreamLineage` or a data job's `dataJobInputOutput`). The edge is replaced and removed
     * with that entity's aspect. Part of the key, as in DataHub's edge document id: two data jobs declaring the same
     * field edge each keep their own, so deleting one job leaves the other's.
     */
    lifecycleowner: { type: 'text', length: 500, bytewise: true },
  },
  primaryKey: ['source', 'aspect', 'type', 'destination', 'lifecycleowner'],
  indexes: [
    { name: 'entity_relationship_destination', on: ['destination', 'type'] },
    { name: 'entity_relationship_lifecycleowner', on: ['lifecycleowner', 'aspect'] },
  ],
});

export const ENTITIES_SCHEMA = [metadataAspectV2, entityRelationship, timeseriesOutbox] as const;

// What drizzle-kit reads: it takes the tables among a schema file's exports, each config those of its dialect.
export const { sqlite: metadataAspectV2Sqlite, postgres: metadataAspectV2Postgres } = metadataAspectV2;
export const { sqlite: entityRelationshipSqlite, postgres: entityRelationshipPostgres } = entityRelationship;
