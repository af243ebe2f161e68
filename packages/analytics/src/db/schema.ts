import { defineTable } from '@mds/db';

// The usage events table, described once for both dialects (@mds/db's schema factory). The code speaks plain SQL
// through the storage port; drizzle-kit generates each dialect's migrations from the tables exported at the end
// (drizzle.sqlite.config.ts, drizzle.postgres.config.ts), and test/schema.test.ts checks both folders create exactly
// this table.

/**
 * One usage event the web UI posted (DataHub's `datahub_usage_event` index, one document per row). The columns the
 * charts group or filter by are copied out of the event; `event` keeps the whole event as stored, actor and time
 * included. Append-only: a time series, never read as an aspect.
 */
export const usageEvents = defineTable('usage_events', {
  columns: {
    id: { type: 'bigint', identity: true },
    /** When mds received it, milliseconds since the epoch. */
    timestamp_millis: { type: 'bigint' },
    /** DataHub's event type name: `PageViewEvent`, `SearchEvent`, `EntityViewEvent` … */
    type: { type: 'text', bytewise: true },
    /** The authenticated caller who posted it. */
    actor_urn: { type: 'text', bytewise: true },
    /** The UI's per-browser id: what DataHub counts active users by. */
    browser_id: { type: 'text', bytewise: true, nullable: true },
    entity_type: { type: 'text', bytewise: true, nullable: true },
    entity_urn: { type: 'text', bytewise: true, nullable: true },
    query: { type: 'text', bytewise: true, nullable: true },
    section: { type: 'text', bytewise: true, nullable: true },
    action_type: { type: 'text', bytewise: true, nullable: true },
    /** The event's JSON text, as stored (actorUrn and timestamp set by mds). */
    event: { type: 'text' },
  },
  primaryKey: ['id'],
  indexes: [
    { name: 'usage_events_time', on: ['timestamp_millis'] },
    { name: 'usage_events_type_time', on: ['type', 'timestamp_millis'] },
  ],
});

export const ANALYTICS_SCHEMA = [usageEvents] as const;

// What drizzle-kit reads: it takes the tables among a schema file's exports, each config those of its dialect.
export const { sqlite: usageEventsSqlite, postgres: usageEventsPostgres } = usageEvents;
