import type { SqlDialect, SqlExecutor } from '@mds/db';
import { edgesOf, fieldEdgesOf } from '../model/relationships';
import type { AdjacentEdge, EdgeKind, WalkQuery, WalkResult } from './port';

/** SQLite's default limit of bound parameters is 32766; stay well under any dialect's. */
const URNS_PER_STATEMENT = 500;

/** The columns of `entity_relationship` a write fills, in order (edgeRows gives their values). */
export const EDGE_COLUMNS = [
  'source',
  'aspect',
  'type',
  'destination',
  'createdon',
  'createdactor',
  'updatedon',
  'updatedactor',
  'manual',
  'lifecycleowner',
];

/**
 * The rows of `entity_relationship` one aspect value declares, for EDGE_COLUMNS: its `@Relationship` edges from `urn`
 * (`edgesOf`), then the edges between fields it declares (`fieldEdgesOf`); `urn` is the lifecycle owner of all.
 */
export function edgeRows(dialect: SqlDialect, urn: string, aspect: string, value: unknown): unknown[][] {
  return [
    ...edgesOf(aspect, value).map((edge) => [
      urn,
      aspect,
      edge.type,
      edge.destination,
      edge.createdOn ?? null,
      edge.createdActor ?? null,
      edge.updatedOn ?? null,
      edge.updatedActor ?? null,
      edge.manual ? (dialect === 'sqlite' ? 1 : true) : null,
      urn,
    ]),
    ...fieldEdgesOf(urn, aspect, value).map((edge) => [
      edge.source,
      aspect,
      edge.type,
      edge.destination,
      null,
      null,
      null,
      null,
      null,
      urn,
    ]),
  ];
}

const FIELD_PREFIX = 'urn:li:schemaField:';
const kindKey = (kind: EdgeKind) => `${kind.aspect}|${kind.type}`;
const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/** An urn column as the walk carries it: text, compared bytewise on PostgreSQL as the edge table's keys are. */
const asUrn = (dialect: SqlDialect, expression: string) =>
  dialect === 'postgres' ? `CAST(${expression} AS TEXT) COLLATE "C"` : expression;

/**
 * The condition an edge `r` meets to be followed from the entity `at`: outgoing from it (it is the source) with one of
 * `outgoing`'s kinds, or incoming to it with one of `incoming`'s, and, with time bounds, made or changed within them,
 * or with no times at all, or drawn by hand (DataHub's edge time filter).
 */
function followed(
  at: string,
  query: Pick<WalkQuery, 'outgoing' | 'incoming' | 'between'>,
  atValue?: string,
): { sql: string; params: unknown[] } {
  const atParams = atValue === undefined ? [] : [atValue];
  const kind = "(r.aspect || '|' || r.type)";
  const sides: string[] = [];
  const params: unknown[] = [];
  if (query.outgoing.length) {
    sides.push(`(r.source = ${at} AND ${kind} IN (${marks(query.outgoing)}))`);
    params.push(...atParams, ...query.outgoing.map(kindKey));
  }
  if (query.incoming.length) {
    sides.push(`(r.destination = ${at} AND ${kind} IN (${marks(query.incoming)}))`);
    params.push(...atParams, ...query.incoming.map(kindKey));
  }
  let sql = sides.length ? `(${sides.join(' OR ')})` : '1 = 0';
  // A schema field's lineage is other fields' (DataHub's lineage registry for schemaField): from a field, only an edge
  // to a field is followed, and an edge from a field (column-level lineage) only to a field, from either end.
  const isField = (expression: string) => `substr(${expression}, 1, ${FIELD_PREFIX.length}) = ?`;
  const other = `CASE WHEN r.source = ${at} THEN r.destination ELSE r.source END`;
  sql += ` AND (NOT ${isField(at)} OR ${isField(other)}) AND (NOT ${isField('r.source')} OR ${isField('r.destination')})`;
  params.push(...atParams, FIELD_PREFIX, ...atParams, FIELD_PREFIX, FIELD_PREFIX, FIELD_PREFIX);
  if (query.between) {
    const { start, end } = query.between;
    sql +=
      ' AND (r.manual = ? OR (COALESCE(r.createdon, 0) = 0 AND COALESCE(r.updatedon, 0) = 0)' +
      ' OR (r.createdon <> 0 AND r.createdon BETWEEN ? AND ?) OR (r.updatedon <> 0 AND r.updatedon BETWEEN ? AND ?))';
    params.push(true, start, end, start, end);
  }
  return { sql, params };
}

/**
 * The bounded walk (port.ts `walk`): one recursive query over `entity_relationship` answering (entity, hop) pairs —
 * and, with paths, the entity each was reached from — breadth first, at most `maxHops` deep and `maxRows` rows; then
 * the stored state of the entities reached (existence, `status.removed`), one statement per 500.
 */
export async function walkEdges(db: SqlExecutor, urn: string, query: WalkQuery): Promise<WalkResult> {
  const { dialect } = db;
  const edge = followed('w.urn', query);
  const other = 'CASE WHEN r.source = w.urn THEN r.destination ELSE r.source END';
  const via = query.paths ? asUrn(dialect, 'w.urn') : asUrn(dialect, "''");
  const rows = await db.all<{ urn: string; depth: number; via: string }>(
    `WITH RECURSIVE walk(urn, depth, via) AS (
       SELECT ${asUrn(dialect, '?')}, 0, ${asUrn(dialect, "''")}
       UNION
       SELECT ${asUrn(dialect, other)}, w.depth + 1, ${via}
       FROM walk w JOIN entity_relationship r ON ${edge.sql}
       WHERE w.depth < ?
     )
     SELECT urn, depth, via FROM walk WHERE depth > 0 LIMIT ?`,
    [urn, ...edge.params, query.maxHops, query.maxRows + 1],
  );
  const truncated = rows.length > query.maxRows;
  if (truncated) rows.length = query.maxRows;

  const found = new Map<string, { degrees: Set<number>; vias: Map<number, Set<string>> }>();
  for (const row of rows) {
    if (row.urn === urn) continue;
    const depth = Number(row.depth);
    const entry = found.get(row.urn) ?? { degrees: new Set<number>(), vias: new Map<number, Set<string>>() };
    entry.degrees.add(depth);
    if (query.paths) entry.vias.set(depth, (entry.vias.get(depth) ?? new Set<string>()).add(row.via));
    found.set(row.urn, entry);
  }

  const state = await storedState(db, [...found.keys()]);
  const kept = [...found].filter(([at]) => {
    const stored = state.get(at);
    if (!stored) return query.includeGhosts === true;
    return query.includeSoftDeleted === true || !stored.removed;
  });
  const degreeOf = new Map(kept.map(([at, entry]) => [at, Math.min(...entry.degrees)]));
  degreeOf.set(urn, 0);

  // Shortest paths: each step goes through an entity found one hop nearer (and kept), from the root.
  const pathsTo = new Map<string, string[][]>([[urn, [[urn]]]]);
  const shortestPaths = (at: string): string[][] => {
    const known = pathsTo.get(at);
    if (known) return known;
    const degree = degreeOf.get(at)!;
    const vias = [...(found.get(at)?.vias.get(degree) ?? [])].filter((v) => degreeOf.get(v) === degree - 1).sort();
    const paths = vias.flatMap((v) => shortestPaths(v).map((path) => [...path, at])).slice(0, query.maxPathsPerEntity ?? 100);
    pathsTo.set(at, paths);
    return paths;
  };

  const entities = kept
    .map(([at, entry]) => ({
      urn: at,
      degree: degreeOf.get(at)!,
      degrees: [...entry.degrees].sort((a, b) => a - b),
      ...(query.paths ? { paths: shortestPaths(at) } : {}),
    }))
    .sort((a, b) => a.degree - b.degree || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
  return { entities, truncated };
}

/** Whether each urn has any aspect stored, and its `status.removed`. */
async function storedState(db: SqlExecutor, urns: readonly string[]): Promise<Map<string, { removed: boolean }>> {
  const state = new Map<string, { removed: boolean }>();
  for (let i = 0; i < urns.length; i += URNS_PER_STATEMENT) {
    const chunk = urns.slice(i, i + URNS_PER_STATEMENT);
    const rows = await db.all<{ urn: string; status: string | null }>(
      `SELECT urn, MAX(CASE WHEN aspect = 'status' THEN metadata END) AS status FROM metadata_aspect_v2
       WHERE version = 0 AND urn IN (${marks(chunk)}) GROUP BY urn`,
      chunk,
    );
    for (const row of rows) state.set(row.urn, { removed: row.status !== null && JSON.parse(row.status).removed === true });
  }
  return state;
}

/** One hop (port.ts `adjacent`): the edges followed from `urn`, with the entity at their other end and their stamps. */
export async function adjacentEdges(
  db: SqlExecutor,
  urn: string,
  query: Pick<WalkQuery, 'outgoing' | 'incoming' | 'between'>,
): Promise<AdjacentEdge[]> {
  const edge = followed('?', query, urn);
  const rows = await db.all<{
    source: string;
    type: string;
    destination: string;
    createdon: number | string | null;
    createdactor: string | null;
    updatedon: number | string | null;
    updatedactor: string | null;
    manual: number | boolean | null;
  }>(
    `SELECT source, type, destination, createdon, createdactor, updatedon, updatedactor, manual FROM entity_relationship r
     WHERE ${edge.sql} ORDER BY type, source, destination`,
    edge.params,
  );
  const stamp = (value: number | string | null) => (value === null ? null : Number(value));
  return rows.map((row) => ({
    type: row.type,
    urn: row.source === urn ? row.destination : row.source,
    direction: row.source === urn ? ('OUTGOING' as const) : ('INCOMING' as const),
    createdOn: stamp(row.createdon),
    createdActor: row.createdactor,
    updatedOn: stamp(row.updatedon),
    updatedActor: row.updatedactor,
    manual: row.manual === true || row.manual === 1,
  }));
}
