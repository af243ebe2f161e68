import { findEntity, findEntityOfUrn, keyAspectValue, parseUrn, type EntitySpec } from '@mds/core';
import { copiedTable, createCommitCache, deleteRows, writeRows, type CopiedTable, type SqlDatabase, type SqlExecutor } from '@mds/db';
import { searchDocument, type SearchDocument, type SearchIndex } from '@mds/search';
import { ApiError, badRequest, unprocessable } from '@mds/schema';
import { fileURLToPath } from 'node:url';
import { canonicalJson } from './canonical-json';
import { entityRelationship, metadataAspectV2 } from './db/schema';
import { applyPatch } from './patch';
import { assertValid, urnParameter } from './proposals';
import { declaresEdges, edgesOf } from './relationships';

/** One row of `metadata_aspect_v2`, decoded. Version 0 is the latest value; 1..n the history, 1 the oldest. */
export interface StoredAspect {
  urn: string;
  aspect: string;
  version: number;
  value: Record<string, unknown>;
  systemMetadata: SystemMetadata | null;
  /** Epoch milliseconds of the write that produced this row. */
  createdOn: number;
  createdBy: string;
  createdFor: string | null;
}

export type SystemMetadata = Record<string, unknown>;
export type ChangeType = 'UPSERT' | 'CREATE' | 'CREATE_ENTITY' | 'UPDATE' | 'PATCH';

export interface AspectWrite {
  urn: string;
  /** The registry name of the URN's entity type. */
  entityType: string;
  /** A versioned aspect of that entity, or its key aspect (which is ignored: the key is built from the URN). */
  aspect: string;
  changeType: ChangeType;
  /** The value; for PATCH, the patch applied to the latest value inside the write (entities-api §6.6). */
  value: unknown;
  systemMetadata?: SystemMetadata | null;
  /** `If-None-Match` and `If-Version-Match` (entities-api §6.3); names compared case-insensitively. */
  headers?: Record<string, string>;
}

/** Who wrote, when: the audit stamp of every row a write produces. */
export interface Audit {
  actor: string;
  impersonator?: string | null;
  time: number;
}

export interface WriteResult {
  urn: string;
  aspect: string;
  /** What happened: a new value, the same value again (only systemMetadata moved), or nothing (a conditional no-op). */
  outcome: 'written' | 'unchanged' | 'skipped';
}

/** The item at `index` of a write could not be applied; nothing of the write was. `error` is the answer to give. */
export class ItemWriteError extends Error {
  constructor(
    readonly index: number,
    readonly error: ApiError,
  ) {
    super(`item ${index}: ${error.message}`);
    this.name = 'ItemWriteError';
  }
}

const MIGRATIONS = {
  sqlite: fileURLToPath(new URL('../migrations/sqlite', import.meta.url)),
  postgres: fileURLToPath(new URL('../migrations/postgres', import.meta.url)),
} as const;
const DEFAULT_RUN_ID = 'no-run-id-provided';
/** systemMetadata fields only the server writes (entities-api §3.3): a client's are dropped. */
const SERVER_OWNED = ['version', 'aspectCreated', 'aspectModified'];
/** SQLite's default limit of bound parameters is 32766; stay well under any dialect's. */
const URNS_PER_STATEMENT = 500;
/** Entities whose latest aspects are kept between commits (the cache is emptied at this size, as by any commit). */
const MAX_CACHED_ENTITIES = 10_000;

interface Row {
  urn: string;
  aspect: string;
  version: number;
  metadata: string;
  systemmetadata: string | null;
  createdon: number;
  createdby: string;
  createdfor: string | null;
  /** The highest version of the row's aspect, when asked for. */
  newest?: number;
}

const ROW_COLUMNS = metadataAspectV2.columnNames;
const COLUMNS = ROW_COLUMNS.join(', ');

/** One aspect of one entity as a write sees it: what the database held, and what the write has made of it so far. */
interface Slot {
  /** The latest row (version 0) as the write has left it; absent while the aspect does not exist. */
  row: Row | undefined;
  /** Whether the database held version 0 before the write (its row is then updated, not inserted). */
  stored: boolean;
  /** The highest version stored (0 without history): the next archived row takes the one after. */
  newest: number;
  /** Whether the write changed the row. */
  touched: boolean;
  /** The new value, when the write gave the aspect one (not only new systemMetadata): its edges are then replaced. */
  written?: unknown;
}

/** What one write has learnt and decided so far, item by item: applied to the database at its end, in a few statements. */
interface WriteState {
  /** Every aspect the write's items name, and each entity's key aspect, read in one statement per 500 urns. */
  slots: Map<string, Slot>;
  /** Rows of earlier values, archived as history versions. */
  archived: Row[];
  /** Urns whose entity changed: their search documents are rebuilt before the commit. */
  changed: Set<string>;
  /** Entities this write created, with every aspect it wrote them (latest value), the key included. */
  created: Map<string, Map<string, unknown>>;
}

const slotKey = (urn: string, aspect: string) => `${urn}\n${aspect}`;

const decode = (row: Row): StoredAspect => ({
  urn: row.urn,
  aspect: row.aspect,
  version: Number(row.version),
  value: JSON.parse(row.metadata) as Record<string, unknown>,
  systemMetadata: row.systemmetadata === null ? null : (JSON.parse(row.systemmetadata) as SystemMetadata),
  createdOn: Number(row.createdon),
  createdBy: row.createdby,
  createdFor: row.createdfor,
});

const header = (headers: Record<string, string> | undefined, name: string) =>
  Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];

/**
 * Version 0 of every stored aspect (or of `aspects`) of `urns`, in one statement per 500 urns; `withNewest`: with the
 * highest version of each aspect.
 */
async function latestRows(on: SqlExecutor, urns: readonly string[], aspects?: readonly string[], withNewest = false): Promise<Row[]> {
  const rows: Row[] = [];
  const newest = withNewest
    ? ', (SELECT max(version) FROM metadata_aspect_v2 h WHERE h.urn = m.urn AND h.aspect = m.aspect) AS newest'
    : '';
  const onlyAspects = aspects?.length ? ` AND aspect IN (${aspects.map(() => '?').join(', ')})` : '';
  for (let i = 0; i < urns.length; i += URNS_PER_STATEMENT) {
    const chunk = urns.slice(i, i + URNS_PER_STATEMENT);
    rows.push(
      ...(await on.all<Row>(
        `SELECT ${COLUMNS}${newest} FROM metadata_aspect_v2 m WHERE version = 0 AND urn IN (${chunk.map(() => '?').join(', ')})${onlyAspects}`,
        [...chunk, ...(aspects ?? [])],
      )),
    );
  }
  return rows;
}

/** The key aspect of an entity, built from its URN; a URN it cannot be built from is the caller's 400. */
function keyAspectOf(entity: EntitySpec, urn: ReturnType<typeof parseUrn>): Record<string, string> {
  try {
    return keyAspectValue(entity, urn);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
}

/**
 * DataHub's versioned aspect store (`metadata_aspect_v2`, entities-api §3) on the storage port. A write applies all
 * its items in one transaction or none: the first item that fails throws ItemWriteError and undoes the others.
 */
export function createAspectStore(db: SqlDatabase, options: { search?: SearchIndex } = {}) {
  const { search } = options;

  async function readLatest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, Map<string, StoredAspect>>> {
    const found = new Map<string, Map<string, StoredAspect>>();
    for (const row of await latestRows(db, urns, aspects)) {
      const byAspect = found.get(row.urn) ?? new Map<string, StoredAspect>();
      found.set(row.urn, byAspect.set(row.aspect, decode(row)));
    }
    return found;
  }
  const oneEntity = createCommitCache<string, Promise<Map<string, StoredAspect> | undefined>>(db.commitStamp, {
    maxEntries: MAX_CACHED_ENTITIES,
  });

  /** systemMetadata of a first write: the request's, with the server's fields and defaults. */
  const firstSystemMetadata = (requested: SystemMetadata | null | undefined, audit: Audit): SystemMetadata => {
    const stamp = { time: audit.time, actor: audit.actor };
    const own = Object.fromEntries(Object.entries(requested ?? {}).filter(([key]) => !SERVER_OWNED.includes(key)));
    return {
      lastObserved: audit.time,
      runId: DEFAULT_RUN_ID,
      lastRunId: DEFAULT_RUN_ID,
      ...own,
      version: '1',
      aspectCreated: stamp,
      aspectModified: stamp,
    };
  };

  const newRow = (urn: string, aspect: string, value: unknown, systemMetadata: SystemMetadata, audit: Audit): Row => ({
    urn,
    aspect,
    version: 0,
    metadata: JSON.stringify(value),
    systemmetadata: JSON.stringify(systemMetadata),
    createdon: audit.time,
    createdby: audit.actor,
    createdfor: audit.impersonator ?? null,
  });

  /**
   * What the write will find of its items' aspects: version 0 of each, and how many versions each has, in one
   * statement per 500 urns. Nothing else is read until the write's end.
   */
  async function readSlots(tx: SqlExecutor, items: readonly AspectWrite[]): Promise<Map<string, Slot>> {
    const urns = [...new Set(items.map((item) => item.urn))];
    const aspects = [...new Set(items.flatMap((item) => [item.aspect, findEntity(item.entityType)?.keyAspect ?? item.aspect]))];
    const slots = new Map<string, Slot>();
    for (const row of await latestRows(tx, urns, aspects, true)) {
      slots.set(slotKey(row.urn, row.aspect), { row, stored: true, newest: Number(row.newest), touched: false });
    }
    return slots;
  }
  const slotOf = (state: WriteState, urn: string, aspect: string): Slot => {
    const key = slotKey(urn, aspect);
    let slot = state.slots.get(key);
    if (!slot) state.slots.set(key, (slot = { row: undefined, stored: false, newest: 0, touched: false }));
    return slot;
  };

  /** One item, decided in memory against what the write has seen and done so far (entities-api §3.2, §3.4, §6.3, §6.4). */
  function apply(item: AspectWrite, audit: Audit, state: WriteState): WriteResult {
    const entity = findEntity(item.entityType);
    if (!entity) throw unprocessable(`Unknown entity: ${item.entityType}`);
    const urn = urnParameter(item.urn);
    const ifNoneMatch = header(item.headers, 'If-None-Match') === '*';
    const skipped: WriteResult = { urn: item.urn, aspect: item.aspect, outcome: 'skipped' };

    const keySlot = slotOf(state, item.urn, entity.keyAspect);
    if (item.changeType === 'CREATE_ENTITY' && keySlot.row) {
      if (ifNoneMatch) return skipped;
      throw unprocessable('Cannot perform CREATE_ENTITY if not exists since the entity key already exists.');
    }
    if (!keySlot.row) {
      // The key aspect, built from the URN, is written with the first aspect of a new entity (entities-api §3.4).
      const key = keyAspectOf(entity, urn);
      keySlot.row = newRow(item.urn, entity.keyAspect, key, firstSystemMetadata(item.systemMetadata, audit), audit);
      keySlot.touched = true;
      state.created.set(item.urn, new Map([[entity.keyAspect, key]]));
      state.changed.add(item.urn);
    }
    // A key aspect sent by the client is dropped: the key is the URN's (DataHub DefaultAspectsUtil).
    if (item.aspect === entity.keyAspect) return skipped;

    const slot = slotOf(state, item.urn, item.aspect);
    const current = slot.row;
    const value = item.changeType === 'PATCH' ? patched(item, current) : item.value;
    if (item.changeType === 'CREATE' && current) {
      if (ifNoneMatch) return skipped;
      throw unprocessable('Cannot perform CREATE since the aspect already exists.');
    }
    const currentSystem = current?.systemmetadata ? (JSON.parse(current.systemmetadata) as SystemMetadata) : null;
    const expected = header(item.headers, 'If-Version-Match');
    const actual = currentSystem?.version === undefined ? '-1' : String(currentSystem.version);
    if (expected !== undefined && expected !== actual) {
      throw unprocessable(
        `Expected version ${expected} of aspect ${item.aspect} of ${item.urn}, found version ${actual} (If-Version-Match).`,
      );
    }
    slot.touched = true;
    const written: WriteResult = { urn: item.urn, aspect: item.aspect, outcome: 'written' };
    state.created.get(item.urn)?.set(item.aspect, value);

    if (!current) {
      slot.written = value;
      slot.row = newRow(item.urn, item.aspect, value, firstSystemMetadata(item.systemMetadata, audit), audit);
      return written;
    }
    const requested = item.systemMetadata ?? {};
    const observed = {
      lastObserved: typeof requested.lastObserved === 'number' ? requested.lastObserved : audit.time,
      runId: typeof requested.runId === 'string' ? requested.runId : DEFAULT_RUN_ID,
      lastRunId: currentSystem?.runId ?? DEFAULT_RUN_ID,
    };
    if (canonicalJson(JSON.parse(current.metadata)) === canonicalJson(value)) {
      // The same value again: no new version; only when it was seen, and by which run, move.
      slot.row = { ...current, systemmetadata: JSON.stringify({ ...currentSystem, ...observed }) };
      return { urn: item.urn, aspect: item.aspect, outcome: 'unchanged' };
    }
    // A new value: the old latest row is archived unchanged as the next history version, and v0 is overwritten.
    slot.written = value;
    slot.newest += 1;
    state.archived.push({ ...current, version: slot.newest });
    const own = Object.fromEntries(Object.entries(requested).filter(([key]) => !SERVER_OWNED.includes(key)));
    slot.row = newRow(
      item.urn,
      item.aspect,
      value,
      {
        ...own,
        ...observed,
        version: String(slot.newest + 1),
        aspectCreated: currentSystem?.aspectCreated ?? { time: Number(current.createdon), actor: current.createdby },
        aspectModified: { time: audit.time, actor: audit.actor },
      },
      audit,
    );
    return written;
  }

  /**
   * What the write decided, in a few statements whatever its size: new rows and archived versions inserted, changed
   * latest rows replaced, the edges of every aspect written replaced (entities-api §7.6), search documents rebuilt.
   */
  async function flush(tx: SqlExecutor, state: WriteState) {
    const touched = [...state.slots.values()].filter((slot) => slot.touched && slot.row);
    const asValues = (row: Row) => [
      row.urn,
      row.aspect,
      row.version,
      row.metadata,
      row.systemmetadata,
      row.createdon,
      row.createdby,
      row.createdfor,
    ];
    const table = 'metadata_aspect_v2';
    await writeRows(tx, {
      table,
      columns: ROW_COLUMNS,
      rows: [...state.archived, ...touched.filter((s) => !s.stored).map((s) => s.row!)].map(asValues),
    });
    await writeRows(tx, {
      table,
      columns: ROW_COLUMNS,
      rows: touched.filter((s) => s.stored).map((s) => asValues(s.row!)),
      onConflict: { replaceOn: ['urn', 'aspect', 'version'] },
    });

    // Edges of the aspects given a new value (an unchanged value keeps its edges; a new entity has none yet).
    const rewritten = touched.filter((slot) => slot.written !== undefined && declaresEdges(slot.row!.aspect));
    await deleteRows(
      tx,
      { table: 'entity_relationship', columns: ['source', 'aspect'] },
      rewritten.filter((s) => s.stored).map((s) => [s.row!.urn, s.row!.aspect]),
    );
    const edges = rewritten.flatMap(({ row, written }) =>
      edgesOf(row!.aspect, written).map((edge) => [row!.urn, row!.aspect, edge.type, edge.destination]),
    );
    await writeRows(tx, {
      table: 'entity_relationship',
      columns: ['source', 'aspect', 'type', 'destination'],
      rows: edges,
      onConflict: 'ignore',
    });

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

  /** The latest value with the item's patch applied, checked like any value written. */
  function patched(item: AspectWrite, current: Row | undefined): Record<string, unknown> {
    const value = applyPatch(item.aspect, current && (JSON.parse(current.metadata) as Record<string, unknown>), item.value);
    assertValid(item.aspect, value);
    return value;
  }

  return {
    migrate: () => db.migrate({ owner: 'entities', folder: MIGRATIONS[db.dialect] }),

    /** Applies every item in order, in one transaction: all are written, or none (ItemWriteError names the first failure). */
    write(items: readonly AspectWrite[], audit: Audit): Promise<WriteResult[]> {
      // A write touches the rows of its items' entities only (and search values shared by all, inserted skipping a
      // conflict): writes of other entities need not wait for it, nor it for them.
      return db.transaction(
        async (tx) => {
          const state: WriteState = { slots: await readSlots(tx, items), archived: [], changed: new Set(), created: new Map() };
          const results = items.map((item, index) => {
            try {
              const result = apply(item, audit, state);
              if (result.outcome === 'written') state.changed.add(result.urn);
              return result;
            } catch (error) {
              if (error instanceof ApiError) throw new ItemWriteError(index, error);
              throw error;
            }
          });
          // Search sees every entity this write changed, in the same commit.
          await flush(tx, state);
          return results;
        },
        { lockKeys: items.map((item) => item.urn) },
      );
    },

    /** One version of an aspect: 0 the latest, 1..n history, a negative N the (max+N+1)th (so -1 is the newest archived). */
    async get(urn: string, aspect: string, version = 0): Promise<StoredAspect | undefined> {
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
      const row = await db.get<Row>(`SELECT ${COLUMNS} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? AND version = ?`, [
        urn,
        aspect,
        wanted,
      ]);
      return row && decode(row);
    },

    /** Every version of an aspect: the latest (0) first, then the history from the oldest (1). */
    async versions(urn: string, aspect: string): Promise<StoredAspect[]> {
      const rows = await db.all<Row>(`SELECT ${COLUMNS} FROM metadata_aspect_v2 WHERE urn = ? AND aspect = ? ORDER BY version`, [
        urn,
        aspect,
      ]);
      return rows.map(decode);
    },

    /**
     * The latest value of every stored aspect (or of `aspects`) of each urn, in one statement per 500 urns. One urn's
     * aspects may come from a cache no commit outlives (the hot read of tag(urn) and GET /aspects): they are shared,
     * never to be changed.
     */
    async latest(urns: readonly string[], aspects?: readonly string[]): Promise<Map<string, Map<string, StoredAspect>>> {
      if (urns.length !== 1) return readLatest(urns, aspects);
      const urn = urns[0]!;
      const key = `${urn}\n${aspects?.join(',') ?? '*'}`;
      const one = oneEntity.get(key, () => readLatest(urns, aspects).then((found) => found.get(urn)));
      try {
        const stored = await one;
        return new Map(stored ? [[urn, stored]] : []);
      } catch (error) {
        oneEntity.forget(key);
        throw error;
      }
    },

    /** Whether no aspect at all is stored (a new installation). */
    async isEmpty(): Promise<boolean> {
      return (await db.get('SELECT 1 FROM metadata_aspect_v2 LIMIT 1')) === undefined;
    },

    /** Whether the entity's key aspect is stored; a soft-deleted entity (`status.removed`) counts unless asked not to. */
    async exists(urn: string, options: { includeSoftDeleted?: boolean } = {}): Promise<boolean> {
      const entity = findEntity(parseUrn(urn).entityType);
      if (!entity) return false;
      const aspects = await this.latest([urn], [entity.keyAspect, 'status']);
      const stored = aspects.get(urn);
      if (!stored?.has(entity.keyAspect)) return false;
      return (options.includeSoftDeleted ?? true) || stored.get('status')?.value.removed !== true;
    },

    /** Hard delete: every row of the urn, every aspect and version, the key included, and its edges. Answers the rows removed. */
    async deleteEntity(urn: string): Promise<number> {
      return db.transaction(
        async (tx) => {
          await tx.run('DELETE FROM entity_relationship WHERE source = ?', [urn]);
          await search?.remove(tx, urn);
          return (await tx.run('DELETE FROM metadata_aspect_v2 WHERE urn = ?', [urn])).changes;
        },
        { lockKeys: [urn] },
      );
    },

    /**
     * Deletes aspects of an entity, every version of each, with the edges they declared, and reindexes what remains
     * (OpenAPI's DELETE of one aspect, entities-api §8). The key aspect is not among them: that is deleteEntity.
     * Answers the rows removed.
     */
    async deleteAspects(urn: string, aspects: readonly string[]): Promise<number> {
      if (aspects.length === 0) return 0;
      return db.transaction(
        async (tx) => {
          const marks = aspects.map(() => '?').join(', ');
          await tx.run(`DELETE FROM entity_relationship WHERE source = ? AND aspect IN (${marks})`, [urn, ...aspects]);
          const { changes } = await tx.run(`DELETE FROM metadata_aspect_v2 WHERE urn = ? AND aspect IN (${marks})`, [urn, ...aspects]);
          if (changes > 0) await reindexEntities(tx, [urn]);
          return changes;
        },
        { lockKeys: [urn] },
      );
    },

    /** Rebuilds the search index from the stored aspects, `batch` entities per transaction; `progress(done, total)`. */
    async reindex(progress: (done: number, total: number) => void = () => {}, batch = 500): Promise<number> {
      const urns = (await db.all<{ urn: string }>('SELECT DISTINCT urn FROM metadata_aspect_v2 WHERE version = 0 ORDER BY urn')).map(
        (r) => r.urn,
      );
      for (let i = 0; i < urns.length; i += batch) {
        const chunk = urns.slice(i, i + batch);
        await db.transaction(
          async (tx) => {
            await reindexEntities(tx, chunk);
          },
          { lockKeys: chunk },
        );
        progress(Math.min(i + batch, urns.length), urns.length);
      }
      return urns.length;
    },

    /** The entities with an edge of `type` to `urn`, and the aspect of each that declares it (deleteTag's clean-up). */
    async referencesTo(urn: string, type: string): Promise<{ urn: string; aspect: string }[]> {
      return db.all<{ urn: string; aspect: string }>(
        'SELECT DISTINCT source AS urn, aspect FROM entity_relationship WHERE destination = ? AND type = ? ORDER BY source, aspect',
        [urn, type],
      );
    },

    /**
     * The edges from `urn` (OUTGOING) or to it (INCOMING), of `types` (all when empty), ordered by type then urn, a
     * page of them and how many there are in all.
     */
    async relationships(
      urn: string,
      query: { direction: 'INCOMING' | 'OUTGOING'; types: readonly string[]; start: number; count: number },
    ) {
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
  };
}

export type AspectStore = ReturnType<typeof createAspectStore>;

/** The aspect store's tables, for copying an installation (the search index is derived from them, so not listed). */
export const ASPECT_STORE_TABLES: readonly CopiedTable[] = [copiedTable(metadataAspectV2), copiedTable(entityRelationship)];
