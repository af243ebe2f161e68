import type { SqlDatabase } from '@mds/db';
import type { UsageEventRow } from './events';

/** A window of time, both ends included (milliseconds since the epoch). */
export interface TimeWindow {
  start: number;
  end: number;
}

/** Which events an aggregation counts: a window, and columns equal to one of the values given, or not. */
export interface EventFilter {
  window: TimeWindow;
  /** Column → accepted values (any one). */
  only?: Partial<Record<GroupColumn, readonly string[]>>;
  /** Column → refused values. */
  not?: Partial<Record<GroupColumn, readonly string[]>>;
}

/** The columns an aggregation may group or filter by (never a name taken from a request). */
export type GroupColumn = 'type' | 'actor_urn' | 'browser_id' | 'entity_type' | 'entity_urn' | 'query' | 'section' | 'action_type';

/** Events and distinct browsers within a filter. */
export interface EventCount {
  events: number;
  browsers: number;
}

/** A group of events: its key (null where the column is empty) and how many. */
export interface GroupCount {
  key: string | null;
  second?: string | null;
  count: number;
}

const INSERT_COLUMNS = [
  'timestamp_millis',
  'type',
  'actor_urn',
  'browser_id',
  'entity_type',
  'entity_urn',
  'query',
  'section',
  'action_type',
  'event',
] as const satisfies readonly (keyof UsageEventRow)[];

/**
 * The usage events, on the storage port (SQLite or PostgreSQL alike): appended one at a time, read only as
 * aggregations over a window of time (the `timestamp_millis` index bounds every read).
 */
export function usageEventStore(db: SqlDatabase) {
  function where(filter: EventFilter): { sql: string; params: unknown[] } {
    const clauses = ['timestamp_millis >= ?', 'timestamp_millis <= ?'];
    const params: unknown[] = [filter.window.start, filter.window.end];
    for (const [column, values] of Object.entries(filter.only ?? {})) {
      clauses.push(`${column} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    }
    for (const [column, values] of Object.entries(filter.not ?? {})) {
      clauses.push(`(${column} IS NULL OR ${column} NOT IN (${values.map(() => '?').join(', ')}))`);
      params.push(...values);
    }
    return { sql: clauses.join(' AND '), params };
  }

  return {
    async append(row: UsageEventRow): Promise<void> {
      await db.run(
        `INSERT INTO usage_events (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`,
        INSERT_COLUMNS.map((column) => row[column]),
      );
    },

    async count(filter: EventFilter): Promise<EventCount> {
      const { sql, params } = where(filter);
      const row = await db.get<{ events: number | string; browsers: number | string }>(
        `SELECT COUNT(*) AS events, COUNT(DISTINCT browser_id) AS browsers FROM usage_events WHERE ${sql}`,
        params,
      );
      return { events: Number(row?.events ?? 0), browsers: Number(row?.browsers ?? 0) };
    },

    /**
     * Events grouped by `column` (and `second`, when given), most first, ties by key; at most `limit` groups.
     * `missing`: the groups of events without the column too (key null); otherwise they are left out.
     */
    async groups(
      filter: EventFilter,
      column: GroupColumn,
      options: { limit: number; missing: boolean; second?: GroupColumn },
    ): Promise<GroupCount[]> {
      const { sql, params } = where(filter);
      const keys = options.second ? `${column} AS key, ${options.second} AS second` : `${column} AS key`;
      const groupBy = options.second ? `${column}, ${options.second}` : column;
      const present = options.missing ? '' : ` AND ${column} IS NOT NULL`;
      const rows = await db.all<{ key: string | null; second?: string | null; count: number | string }>(
        `SELECT ${keys}, COUNT(*) AS count FROM usage_events WHERE ${sql}${present} GROUP BY ${groupBy} ORDER BY count DESC, key ASC LIMIT ?`,
        [...params, options.limit],
      );
      return rows.map((row) => ({ ...row, count: Number(row.count) }));
    },
  };
}

export type UsageEventStore = ReturnType<typeof usageEventStore>;
