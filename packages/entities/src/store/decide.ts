import { ApiError, unprocessable } from '@mds/schema';
import { canonicalJson } from '../model/canonical-json';
import { applyPatch } from '../model/patch';
import {
  ENTITY_KEY_EXISTS,
  ItemWriteError,
  type AspectWrite,
  type Audit,
  type StoredAspect,
  type SystemMetadata,
  type ValueCheck,
  type WriteResult,
} from './port';

// The write rules of the aspect store (entities-api §3.2-3.4, §6.3-6.4), decided in memory: no SQL, no I/O. The SQL
// adapter reads what a write's items name, hands it here item by item, and stores what comes back.

/** One row of `metadata_aspect_v2` as the database holds it. */
export interface Row {
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

/** One aspect of one entity as a write sees it: what the database held, and what the write has made of it so far. */
export interface Slot {
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

/** What one write has learnt and decided so far, item by item. */
export interface WriteState {
  /** Every aspect the write's items name, and each entity's key aspect, as read at the write's start. */
  slots: Map<string, Slot>;
  /** Rows of earlier values, archived as history versions. */
  archived: Row[];
  /** Urns whose entity changed: their search documents are rebuilt before the commit. */
  changed: Set<string>;
  /** Entities this write created, with every aspect it wrote them (latest value), the key included. */
  created: Map<string, Map<string, unknown>>;
}

export const DEFAULT_RUN_ID = 'no-run-id-provided';
/** systemMetadata fields only the server writes (entities-api §3.3): a client's are dropped. */
const SERVER_OWNED = ['version', 'aspectCreated', 'aspectModified'];

export const slotKey = (urn: string, aspect: string) => `${urn}\n${aspect}`;

export const decode = (row: Row): StoredAspect => ({
  urn: row.urn,
  aspect: row.aspect,
  version: Number(row.version),
  value: JSON.parse(row.metadata) as Record<string, unknown>,
  systemMetadata: row.systemmetadata === null ? null : (JSON.parse(row.systemmetadata) as SystemMetadata),
  createdOn: Number(row.createdon),
  createdBy: row.createdby,
  createdFor: row.createdfor,
});

/** The slots a write starts from: the rows read (version 0, with the highest version of each aspect). */
export function slotsOf(rows: readonly Row[]): Map<string, Slot> {
  return new Map(rows.map((row) => [slotKey(row.urn, row.aspect), { row, stored: true, newest: Number(row.newest), touched: false }]));
}

/** The urns and aspects a write must read before deciding: its items' aspects and each entity's key. */
export function aspectsToRead(items: readonly AspectWrite[]): { urns: string[]; aspects: string[] } {
  return {
    urns: [...new Set(items.map((item) => item.urn))],
    aspects: [...new Set(items.flatMap((item) => [item.aspect, item.key.aspect]))],
  };
}

/**
 * Every item of a write decided in order against `slots` (each item sees the ones before it): the results, and the
 * state to store. The first item that cannot be applied throws ItemWriteError naming its index.
 */
export function decideWrite(
  items: readonly AspectWrite[],
  audit: Audit,
  slots: Map<string, Slot>,
  check: ValueCheck,
): { results: WriteResult[]; state: WriteState } {
  const state: WriteState = { slots, archived: [], changed: new Set(), created: new Map() };
  const results = items.map((item, index) => {
    try {
      const result = apply(item, audit, state, check);
      if (result.outcome === 'written') state.changed.add(result.urn);
      return result;
    } catch (error) {
      if (error instanceof ApiError) throw new ItemWriteError(index, error);
      throw error;
    }
  });
  return { results, state };
}

/** A request header of an item, its name in any case (`name` is given in lower case). */
function header(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  for (const key in headers) if (Object.hasOwn(headers, key) && key.toLowerCase() === name) return headers[key];
  return undefined;
}

/** The request's systemMetadata without the fields only the server writes. */
function clientOwn(requested: SystemMetadata | null | undefined): SystemMetadata {
  const own: SystemMetadata = {};
  if (requested) for (const key in requested) if (Object.hasOwn(requested, key) && !SERVER_OWNED.includes(key)) own[key] = requested[key];
  return own;
}

/** systemMetadata of a first write: the request's, with the server's fields and defaults. */
function firstSystemMetadata(requested: SystemMetadata | null | undefined, audit: Audit): SystemMetadata {
  const stamp = { time: audit.time, actor: audit.actor };
  return {
    lastObserved: audit.time,
    runId: DEFAULT_RUN_ID,
    lastRunId: DEFAULT_RUN_ID,
    ...clientOwn(requested),
    version: '1',
    aspectCreated: stamp,
    aspectModified: stamp,
  };
}

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

function slotOf(state: WriteState, urn: string, aspect: string): Slot {
  const key = slotKey(urn, aspect);
  let slot = state.slots.get(key);
  if (!slot) state.slots.set(key, (slot = { row: undefined, stored: false, newest: 0, touched: false }));
  return slot;
}

/** One item, decided against what the write has seen and done so far (entities-api §3.2, §3.4, §6.3, §6.4). */
function apply(item: AspectWrite, audit: Audit, state: WriteState, check: ValueCheck): WriteResult {
  const ifNoneMatch = header(item.headers, 'if-none-match') === '*';
  const skipped: WriteResult = { urn: item.urn, aspect: item.aspect, outcome: 'skipped' };

  const keySlot = slotOf(state, item.urn, item.key.aspect);
  if (item.changeType === 'CREATE_ENTITY' && keySlot.row) {
    if (ifNoneMatch) return skipped;
    throw unprocessable(ENTITY_KEY_EXISTS);
  }
  if (!keySlot.row) {
    // The key aspect, built from the URN, is written with the first aspect of a new entity (entities-api §3.4).
    keySlot.row = newRow(item.urn, item.key.aspect, item.key.value, firstSystemMetadata(item.systemMetadata, audit), audit);
    keySlot.touched = true;
    // Its edges (a data job's flow) are kept like any written value's.
    keySlot.written = item.key.value;
    state.created.set(item.urn, new Map([[item.key.aspect, item.key.value]]));
    state.changed.add(item.urn);
  }
  // A key aspect sent by the client is dropped: the key is the URN's (DataHub DefaultAspectsUtil).
  if (item.aspect === item.key.aspect) return skipped;

  const slot = slotOf(state, item.urn, item.aspect);
  const current = slot.row;
  if (item.changeType === 'CREATE' && current) {
    if (ifNoneMatch) return skipped;
    throw unprocessable('Cannot perform CREATE since the aspect already exists.');
  }
  const value = item.changeType === 'PATCH' ? patched(item, current, check) : item.value;
  const currentSystem = current?.systemmetadata ? (JSON.parse(current.systemmetadata) as SystemMetadata) : null;
  const expected = header(item.headers, 'if-version-match');
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
  const systemMetadata = {
    ...clientOwn(requested),
    ...observed,
    version: String(slot.newest + 1),
    aspectCreated: currentSystem?.aspectCreated ?? { time: Number(current.createdon), actor: current.createdby },
    aspectModified: { time: audit.time, actor: audit.actor },
  };
  slot.row = newRow(item.urn, item.aspect, value, systemMetadata, audit);
  return written;
}

/** The latest value with the item's patch applied, handed to the caller's check like any value it writes. */
function patched(item: AspectWrite, current: Row | undefined, check: ValueCheck): Record<string, unknown> {
  const value = applyPatch(item.aspect, current && (JSON.parse(current.metadata) as Record<string, unknown>), item.value);
  check(item.aspect, value);
  return value;
}
