import { findEntityOfUrn } from '@mds/core';
import {
  copiedTable,
  createCommitCache,
  createStampedCache,
  deleteRows,
  millisecondsOf,
  timestampParameter,
  writeRows,
  type CopiedTable,
  type SqlDatabase,
  type SqlDialect,
  type SqlExecutor,
} from '@mds/db';
import { searchDocument, type SearchDocument, type SearchIndex } from '@mds/search';
import { fileURLToPath } from 'node:url';
import { declaresEdges } from '../model/relationships';
import { aspectsToRead, decideWrite, decode, slotsOf, type Row, type WriteState } from './decide';
import { addToOutbox, outboxPending, removeFromOutbox } from './outbox';
import type { AspectStore, RunRollback, StoredAspect } from './port';
import { entityRelationship, metadataAspectV2 } from './tables';
import { adjacentEdges, EDGE_COLUMNS, edgeRows, walkEdges } from './walk';

const MIGRATIONS = {
  sqlite: fileURLToPath(new URL('../../migrations/sqlite', import.meta.url)),
  postgres: fileURLToPath(new URL('../../migrations/postgres', import.meta.url)),
} as const;
/** SQLite's default limit of bound parameters is 32766; stay well under any dialect's. */
const URNS_PER_STATEMENT = 500;
/** Entities whose latest aspects are kept between commits (the cache is emptied at this size, as by any commit). */
const MAX_CACHED_ENTITIES = 10_000;
const ROW_COLUMNS = metadataAspectV2.columnNames;
/** The columns of a row as read: `createdon` in milliseconds since the epoch on either dialect. */
const COLUMNS: Record<SqlDialect, string> = {
  sqlite: ROW_COLUMNS.join(', '),
  postgres: ROW_COLUMNS.map((c) => (c === 'createdon' ? `${millisecondsOf('postgres', c)} AS createdon` : c)).join(', '),
};

/**
 * Version 0 of every stored aspect (or of `aspects`) of `urns`, in one statement per 500 urns; `withNewest`: with the
 * highest version of each aspect.
 */
async function latestRows(on: SqlExecutor, urns: readonly string[], aspects?: readonly string[], withNewest = false): Promise<Row[]> {
  if (urns.length === 0) return [];
  const aspectCount = aspects?.length ?? 0;
  // The common case, one statement: its rows as they come, no copies.
  if (urns.length <= URNS_PER_STATEMENT) {
    return on.all<Row>(latestSql(on.dialect, urns.length, aspectCount, withNewest), aspectCount ? [...urns, ...aspects!] : urns);
  }
  const rows: Row[] = [];
  for (let i = 0; i < urns.length; i += URNS_PER_STATEMENT) {
    const chunk = urns.slice(i, i + URNS_PER_STATEMENT);
    rows.push(...(await on.all<Row>(latestSql(on.dialect, chunk.length, aspectCount, withNewest), [...chunk, ...(aspects ?? [])])));
  }
  return rows;
}

/** Texts of latestRows' statements for few urns and aspects (the reads of single writes and entity pages), built once. */
const LATEST_SQL = new Map<string, string>();
const MAX_CACHED_SHAPE = 16;
function latestSql(dialect: SqlDialect, urns: number, aspects: number, withNewest: boolean): string {
  const cached = urns <= MAX_CACHED_SHAPE && aspects <= MAX_CACHED_SHAPE;
  const shape = cached ? `${dialect} ${urns} ${aspects} ${withNewest}` : '';
  let sql = cached ? LATEST_SQL.get(shape) : undefined;
  if (sql === undefined) {
    const newest = withNewest
      ? ', (SELECT max(version) FROM metadata_aspect_v2 h WHERE h.urn = m.urn AND h.aspect = m.aspect) AS newest'
      : '';
    const marks = (n: number) => Array.from({ length: n }, () => '?').join(', ');
    const onlyAspects = aspects ? ` AND aspect IN (${marks(aspects)})` : '';
    sql = `SELECT ${COLUMNS[dialect]}${newest} FROM metadata_aspect_v2 m WHERE version = 0 AND urn IN (${marks(urns)})${onlyAspects}`;
    if (cached) LATEST_SQL.set(shape, sql);
  }
  return sql;
}

const asValues = (dialect: SqlDialect) => (row: Row) => [
  row.urn,
  row.aspect,
  row.version,
  row.metadata,
  row.systemmetadata,
  timestampParameter(dialect, row.createdon),
  row.createdby,
  row.createdfor,
];

/**
 * The aspect store (port.ts) on the storage port of `@mds/db`: one table shaped like DataHub's `metadata_aspect_v2`,
 * the edges in `entity_relationship`, and the search index kept in the same commits. The write rules are decide.ts's.
 */
/** The run that wrote a row, from its stored systemMetadata. */
function runIdOf(systemMetadata: string | null): unknown {
  if (systemMetadata === null) return undefined;
  try {
    return (JSON.parse(systemMetadata) as { runId?: unknown } | null)?.runId;
  } catch {
    return undefined;
  }
}

export function createSqlAspectStore(db: SqlDatabase, options: { search?: SearchIndex } = {}): AspectStore {
  const { search } = options;

  async function readLatest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, Map<string, StoredAspect>>> {
    const found = new Map<string, Map<string, StoredAspect>>();
    for (const row of await latestRows(db, urns, aspects)) {
      const byAspect = found.get(row.urn) ?? new Map<string, StoredAspect>();
      found.set(row.urn, byAspect.set(row.aspect, decode(row)));
    }
    return found;
  }
  const ofType = createCommitCache<string, Promise<Map<string, Map<string, StoredAspect>>>>(db.commitStamp, { maxEntries: 64 });
  const oneEntity = createStampedCache<string, Map<string, Map<string, StoredAspect>>>(db.commitStamp, {
    maxEntries: MAX_CACHED_ENTITIES,
  });

  /**
   * What the write decided, in a few statements whatever its size: new rows and archived versions inserted, changed
   * latest rows replaced, the edges of every aspect written replaced (entities-api §7.6), search documents rebuilt.
   */
  async function flush(tx: SqlExecutor, state: WriteState) {
    const touched = [...state.slots.values()].filter((slot) => slot.touched && slot.row);
    const table = 'metadata_aspect_v2';
    const inserted = [...state.archived, ...touched.filter((s) => !s.stored).map((s) => s.row!)];
    await writeRows(tx, { table, columns: ROW_COLUMNS, rows: inserted.map(asValues(tx.dialect)) });
    await writeRows(tx, {
      table,
      columns: ROW_COLUMNS,
      rows: touched.filter((s) => s.stored).map((s) => asValues(tx.dialect)(s.row!)),
      onConflict: { replaceOn: ['urn', 'aspect', 'version'] },
    });

    // Edges of the aspects given a new value (an unchanged value keeps its edges; a new entity has none yet).
    const rewritten = touched.filter((slot) => slot.written !== undefined && declaresEdges(slot.row!.aspect));
    const replaced = rewritten.filter((s) => s.stored).map((s) => [s.row!.urn, s.row!.aspect]);
    await deleteRows(tx, { table: 'entity_relationship', columns: ['lifecycleowner', 'aspect'] }, replaced);
    const edges = rewritten.flatMap(({ row, written }) => edgeRows(tx.dialect, row!.urn, row!.aspect, written));
    await writeRows(tx, { table: 'entity_relationship', columns: EDGE_COLUMNS, rows: edges, onConflict: 'ignore' });

    await reindexEntities(tx, [...state.changed], state.created);
  }

  /** The entities' search documents again, from their latest aspects as this transaction sees them. */
  async function reindexEntities(
    tx: SqlExecutor,
    urns: readonly string[],
    created: ReadonlyMap<string, ReadonlyMap<string, unknown>> = new Map(),
  ) {
    if (!search || urns.length === 0) return;
    // An entity created by this write has only the aspects it wrote, and no document yet: nothing to read back.
    const fresh: SearchDocument[] = [];
    const others: string[] = [];
    for (const urn of urns) {
      const entity = findEntityOfUrn(urn);
      const aspects = created.get(urn);
      if (entity && aspects) fresh.push(searchDocument(entity, urn, aspects));
      else others.push(urn);
    }
    await search.put(tx, fresh, { fresh: true });
    if (others.length === 0) return;
    const aspects = new Map<string, Map<string, unknown>>();
    for (const row of await latestRows(tx, others)) {
      aspects.set(row.urn, (aspects.get(row.urn) ?? new Map<string, unknown>()).set(row.aspect, JSON.parse(row.metadata)));
    }
    const documents = others.flatMap((urn) => {
      const entity = findEntityOfUrn(urn);
      return entity && aspects.has(urn) ? [searchDocument(entity, urn, aspects.get(urn)!)] : [];
    });
    await search.put(tx, documents);
    for (const urn of others) if (!aspects.has(urn)) await search.remove(tx, urn);
  }

  /**
   * The edges of the entities' latest aspects again, as a write would have left them: a table filled by another
   * system (a database restored from DataHub) has none until `mds reindex`.
   */
  async function rebuildEdges(tx: SqlExecutor, urns: readonly string[]) {
    await deleteRows(
      tx,
      { table: 'entity_relationship', columns: ['lifecycleowner'] },
      urns.map((urn) => [urn]),
    );
    const edges = (await latestRows(tx, urns))
      .filter((row) => declaresEdges(row.aspect))
      .flatMap((row) => edgeRows(tx.dialect, row.urn, row.aspect, JSON.parse(row.metadata)));
    await writeRows(tx, { table: 'entity_relationship', columns: EDGE_COLUMNS, rows: edges, onConflict: 'ignore' });
  }

  const store: AspectStore = {
    migrate: () => db.migrate({ owner: 'entities', folder: MIGRATIONS[db.dialect] }),

    write(items, audit, check, also = {}) {
      // A write touches the rows of its items' entities only (and search values shared by all, inserted skipping a
      // conflict): writes of other entities need not wait for it, nor it for them.
      return db.transaction(
        async (tx) => {
          const { urns, aspects } = aspectsToRead(items);
          const { results, state } = decideWrite(items, audit, slotsOf(await latestRows(tx, urns, aspects, true)), check);
          // Search sees every entity this write changed, in the same commit.
          await flush(tx, state);
          if (also.outbox?.length) await addToOutbox(tx, also.outbox, audit.time);
          return results;
        },
        { lockKeys: items.map((item) => item.urn) },
      );
    },

    outbox: {
      pending: (limit) => outboxPending(db, limit),
      remove: (ids) => (ids.length ? db.transaction((tx) => removeFromOutbox(tx, ids)) : Promise.resolve()),
    },

    async get(urn, aspect, version = 0) {
      let wanted = version;
      if (version < 0) {
        const { newest } = (await db.get<{ newest: number | null }>(
          'SELECT max(version) AS newest FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ?',
          [urn, aspect],
        ))!;
        if (newest === null) return undefined;
        wanted = Number(newest) + version + 1;
        if (wanted < 1) return undefined;
      }
      const row = await db.get<Row>(`SELECT ${COLUMNS[db.dialect]} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = ?`, [
        urn,
        aspect,
        wanted,
      ]);
      return row && decode(row);
    },

    async versions(urn, aspect) {
      const sql = `SELECT ${COLUMNS[db.dialect]} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? ORDER BY version`;
      return (await db.all<Row>(sql, [urn, aspect])).map(decode);
    },

    // One urn's aspects may come from a cache no commit outlives (the hot read of tag(urn) and GET /aspects), answered
    // synchronously once read.
    latest(urns, aspects) {
      if (urns.length !== 1) return readLatest(urns, aspects);
      return oneEntity.get(`${urns[0]!}\n${aspects?.join(',') ?? '*'}`, () => readLatest(urns, aspects));
    },

    async isEmpty() {
      return (await db.get('SELECT 1 FROM metadata_aspect_v2 LIMIT 1')) === undefined;
    },

    async exists(urn, options = {}) {
      const entity = findEntityOfUrn(urn);
      if (!entity) return false;
      const stored = (await store.latest([urn], [entity.keyAspect, 'status'])).get(urn);
      if (!stored?.has(entity.keyAspect)) return false;
      return (options.includeSoftDeleted ?? true) || stored.get('status')?.value.removed !== true;
    },

    async deleteEntity(urn) {
      return db.transaction(
        async (tx) => {
          await tx.run('DELETE FROM entity_relationship WHERE source = ? OR lifecycleowner = ?', [urn, urn]);
          await search?.remove(tx, urn);
          return (await tx.run('DELETE FROM metadata_aspect_v2 WHERE urn = ?', [urn])).changes;
        },
        { lockKeys: [urn] },
      );
    },

    async deleteAspects(urn, aspects) {
      if (aspects.length === 0) return 0;
      return db.transaction(
        async (tx) => {
          const marks = aspects.map(() => '?').join(', ');
          await tx.run(`DELETE FROM entity_relationship WHERE lifecycleowner = ? AND aspect IN (${marks})`, [urn, ...aspects]);
          const { changes } = await tx.run(`DELETE FROM metadata_aspect_v2 WHERE urn = ? AND aspect IN (${marks})`, [urn, ...aspects]);
          if (changes > 0) await reindexEntities(tx, [urn]);
          return changes;
        },
        { lockKeys: [urn] },
      );
    },

    async runEntities(runId) {
      // The run's id as it appears in the stored JSON, its LIKE wildcards escaped; each candidate then checked exactly.
      const pattern = `%${JSON.stringify(runId).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db.all<{ urn: string; systemmetadata: string | null }>(
        `SELECT urn, systemmetadata FROM metadata_aspect_v2 WHERE version = 0 AND systemmetadata LIKE ? ESCAPE '\\' ORDER BY urn`,
        [pattern],
      );
      return [...new Set(rows.filter((row) => runIdOf(row.systemmetadata) === runId).map((row) => row.urn))];
    },

    async rollbackRun(urn, runId, { hardDelete, dryRun }) {
      const keyAspect = findEntityOfUrn(urn)?.keyAspect;
      const byRun = (row: Row) => runIdOf(row.systemmetadata) === runId;
      return db.transaction(
        async (tx) => {
          const answer: RunRollback = { aspects: [], unsafeAspects: 0, entityDeleted: false, keyKept: false };
          const removals: [string, string, number][] = [];
          const promotions: [string, number][] = [];
          const latest = await latestRows(tx, [urn]);
          if (latest.some((row) => row.aspect === keyAspect && byRun(row)))
            answer.unsafeAspects = latest.filter((row) => !byRun(row) && row.aspect !== 'status').length;
          for (const row of latest.filter(byRun)) {
            const history = await tx.all<Row>(
              `SELECT ${COLUMNS[tx.dialect]} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version > 0 ORDER BY version DESC`,
              [urn, row.aspect],
            );
            // The newest versions the run wrote go too; the first another run wrote survives.
            const survivor = history.find((version) => !byRun(version));
            const key = row.aspect === keyAspect;
            const { version, createdon, metadata } = row;
            answer.aspects.push({
              aspect: row.aspect,
              restored: survivor !== undefined,
              key,
              version: Number(version),
              createdOn: Number(createdon),
              metadata,
            });
            if (key && !survivor) {
              if (hardDelete) answer.entityDeleted = true;
              else answer.keyKept = true;
              continue;
            }
            for (const version of [row, ...history.slice(0, survivor ? history.indexOf(survivor) : history.length)])
              removals.push([urn, row.aspect, Number(version.version)]);
            if (survivor) promotions.push([row.aspect, Number(survivor.version)]);
          }
          if (dryRun || answer.aspects.length === 0) return answer;
          if (answer.entityDeleted) {
            await tx.run('DELETE FROM entity_relationship WHERE source = ? OR lifecycleowner = ?', [urn, urn]);
            await search?.remove(tx, urn);
            await tx.run('DELETE FROM metadata_aspect_v2 WHERE urn = ?', [urn]);
            return answer;
          }
          await deleteRows(tx, { table: 'metadata_aspect_v2', columns: ['urn', 'aspect', 'version'] }, removals);
          for (const [aspect, version] of promotions)
            await tx.run('UPDATE metadata_aspect_v2 SET version = 0 WHERE urn = ? AND aspect = ? AND version = ?', [urn, aspect, version]);
          await rebuildEdges(tx, [urn]);
          await reindexEntities(tx, [urn]);
          return answer;
        },
        { lockKeys: [urn] },
      );
    },

    async reindex(progress = () => {}, batch = 500) {
      const sql = 'SELECT DISTINCT urn FROM metadata_aspect_v2 WHERE version = 0 ORDER BY urn';
      const urns = (await db.all<{ urn: string }>(sql)).map((r) => r.urn);
      for (let i = 0; i < urns.length; i += batch) {
        const chunk = urns.slice(i, i + batch);
        await db.transaction(
          async (tx) => {
            await rebuildEdges(tx, chunk);
            await reindexEntities(tx, chunk);
          },
          { lockKeys: chunk },
        );
        progress(Math.min(i + batch, urns.length), urns.length);
      }
      return urns.length;
    },

    async recent(count) {
      const rows = await db.all<{ urn: string; written: number | string }>(
        `SELECT urn, MAX(${millisecondsOf(db.dialect, 'createdon')}) AS written FROM metadata_aspect_v2 WHERE version = 0 GROUP BY urn ORDER BY written DESC, urn LIMIT ?`,
        [count],
      );
      // PostgreSQL answers a bigint as text.
      return rows.map((r) => ({ urn: r.urn, lastWritten: Number(r.written) }));
    },

    latestOfType(entityType, aspects) {
      const key = `${entityType}\n${aspects.join(',')}`;
      const answer = ofType.get(key, async () => {
        const prefix = `urn:li:${entityType}:`;
        // A range on the key (bytewise: ';' follows ':'), which the primary key serves on SQLite and on a C-collated PostgreSQL.
        const column = db.dialect === 'postgres' ? 'urn COLLATE "C"' : 'urn';
        const rows = await db.all<{ urn: string }>(
          `SELECT DISTINCT urn FROM metadata_aspect_v2 WHERE ${column} >= ? AND ${column} < ? AND version = 0 ORDER BY urn`,
          [prefix, `urn:li:${entityType};`],
        );
        return readLatest(
          rows.map((row) => row.urn),
          aspects,
        );
      });
      answer.catch(() => ofType.forget(key));
      return answer;
    },

    async referencesTo(urn, type) {
      return db.all<{ urn: string; aspect: string }>(
        'SELECT DISTINCT source AS urn, aspect FROM entity_relationship WHERE destination = ? AND type = ? ORDER BY source, aspect',
        [urn, type],
      );
    },

    async relationships(urn, query) {
      const [self, other] = query.direction === 'OUTGOING' ? ['source', 'destination'] : ['destination', 'source'];
      const types = query.types.length ? ` AND type IN (${query.types.map(() => '?').join(', ')})` : '';
      const where = `FROM entity_relationship WHERE ${self} = ?${types}`;
      const params = [urn, ...query.types];
      const { total } = (await db.get<{ total: number }>(`SELECT count(DISTINCT type || ' ' || ${other}) AS total ${where}`, params))!;
      const rows = await db.all<{ type: string; entity: string }>(
        `SELECT DISTINCT type, ${other} AS entity ${where} ORDER BY type, ${other} LIMIT ? OFFSET ?`,
        [...params, query.count, query.start],
      );
      return { total: Number(total), relationships: rows };
    },

    walk: (urn, query) => walkEdges(db, urn, query),
    adjacent: (urn, query) => adjacentEdges(db, urn, query),
  };
  return store;
}

/** The aspect store's tables, for copying an installation (the search index is derived from them, so not listed). */
export const ASPECT_STORE_TABLES: readonly CopiedTable[] = [copiedTable(metadataAspectV2), copiedTable(entityRelationship)];
