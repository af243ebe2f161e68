import { badRequest, type ApiError } from '@mds/schema';

/** The largest event mds keeps, as its JSON text in bytes (a page view of DataHub's UI is well under 2 kB). */
export const MAX_EVENT_BYTES = 16 * 1024;

/** The fields copied out of an event into columns, each a string when present (what the charts group and filter by). */
const COLUMN_FIELDS = {
  browserId: 'browser_id',
  entityType: 'entity_type',
  entityUrn: 'entity_urn',
  query: 'query',
  section: 'section',
  actionType: 'action_type',
} as const;

/** One event as stored: its columns, and its whole JSON text. */
export interface UsageEventRow {
  timestamp_millis: number;
  type: string;
  actor_urn: string;
  browser_id: string | null;
  entity_type: string | null;
  entity_urn: string | null;
  query: string | null;
  section: string | null;
  action_type: string | null;
  event: string;
}

/**
 * A posted event made ready to store, or the 400 naming what is wrong with it. As DataHub's metadata service does
 * (TrackingService, the Kafka destination), the event is kept whole with `timestamp` set to milliseconds, here mds's
 * receipt time; `actorUrn` is always the authenticated caller, whatever the body says (a client cannot post events on
 * someone else's behalf). `type` must be a name (DataHub answers 400 without one); the columns must be strings.
 */
export function usageEventRow(body: unknown, actorUrn: string, now: number): UsageEventRow | ApiError {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return badRequest('The tracking event must be a JSON object');
  const event = body as Record<string, unknown>;
  const type = event.type;
  if (typeof type !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,99}$/.test(type)) {
    return badRequest(
      type === undefined
        ? 'The tracking event has no "type" (the event type name, e.g. "PageViewEvent")'
        : `The tracking event's "type" must be an event type name (letters, digits, _; at most 100), not ${JSON.stringify(type).slice(0, 120)}`,
    );
  }
  const columns = {} as Record<(typeof COLUMN_FIELDS)[keyof typeof COLUMN_FIELDS], string | null>;
  for (const [field, column] of Object.entries(COLUMN_FIELDS)) {
    const value = event[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return badRequest(`The tracking event's "${field}" must be a string, not ${Array.isArray(value) ? 'an array' : typeof value}`);
    }
    columns[column] = value ?? null;
  }
  const text = JSON.stringify({ ...event, actorUrn, timestamp: now });
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_EVENT_BYTES) {
    return badRequest(`The tracking event is ${bytes} bytes as JSON: at most ${MAX_EVENT_BYTES} are kept per event`);
  }
  return {
    timestamp_millis: now,
    type,
    actor_urn: actorUrn,
    ...columns,
    event: text,
  };
}
