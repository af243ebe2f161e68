import type { MaybePromise } from '@mds/core';
import { ApiError } from '@mds/schema';
import type { OutboxEntry } from './outbox';

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

/** One aspect to write, as the caller has already checked it: a known entity and aspect, a parsed urn, a valid value. */
export interface AspectWrite {
  urn: string;
  /** The entity's key aspect, built from the urn by the caller; stored with the first aspect of a new entity. */
  key: { aspect: string; value: Record<string, unknown> };
  /** A versioned aspect of the entity, or its key aspect (which is then ignored: the key is the urn's). */
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

/**
 * The caller's rule for a value the store computed itself (a PATCH applied to the latest value): it throws the
 * ApiError to answer, and the write is undone. The store has no rule of its own.
 */
export type ValueCheck = (aspect: string, value: Record<string, unknown>) => void;

/** The item at `index` of a write could not be applied; nothing of the write was. `error` is the answer to give. */
/** What a CREATE_ENTITY of an urn whose key is stored is refused with (DataHub's 422 text). */
export const ENTITY_KEY_EXISTS = 'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.';

export class ItemWriteError extends Error {
  constructor(
    readonly index: number,
    readonly error: ApiError,
  ) {
    super(`item ${index}: ${error.message}`);
    this.name = 'ItemWriteError';
  }

  /** Whether the item was a CREATE_ENTITY of an entity that exists (not, say, a value the model refuses). */
  get entityExists(): boolean {
    return this.error.message === ENTITY_KEY_EXISTS;
  }
}

export interface RelationshipQuery {
  direction: 'INCOMING' | 'OUTGOING';
  /** Relationship types (all when empty). */
  types: readonly string[];
  start: number;
  count: number;
}

/** A kind of edge: the relationship name and the aspect of the source that declares it (`upstreamLineage`, `DownstreamOf`). */
export interface EdgeKind {
  aspect: string;
  type: string;
}

/**
 * A bounded walk over the edges from one entity (lineage over several hops). Which edges are followed is the caller's
 * rule: `outgoing` kinds from source to destination, `incoming` kinds from destination back to source.
 */
export interface WalkQuery {
  outgoing: readonly EdgeKind[];
  incoming: readonly EdgeKind[];
  /** How many hops at most (≥ 1). */
  maxHops: number;
  /** How many (entity, hop) pairs the walk may produce before it stops; `truncated` says it did. */
  maxRows: number;
  /** Only edges made or changed within [start, end] (epoch ms), edges with neither time, and edges drawn by hand. */
  between?: { start: number; end: number };
  /** Keep entities whose `status.removed` is true (left out otherwise). */
  includeSoftDeleted?: boolean;
  /** Keep entities that are only the end of an edge, with no aspect stored (left out otherwise). */
  includeGhosts?: boolean;
  /** Answer the shortest paths from the start to each entity (at most `maxPathsPerEntity`, default 100). */
  paths?: boolean;
  maxPathsPerEntity?: number;
}

export interface WalkResult {
  /** Each entity reached (never the start), nearest first then by urn: `degree` the fewest hops, `degrees` every hop count seen. */
  entities: { urn: string; degree: number; degrees: number[]; paths?: string[][] }[];
  truncated: boolean;
}

/** An edge one hop from an entity, as `adjacent` answers it: the entity at its other end and the edge's stamps. */
export interface AdjacentEdge {
  type: string;
  urn: string;
  direction: 'INCOMING' | 'OUTGOING';
  createdOn: number | null;
  createdActor: string | null;
  updatedOn: number | null;
  updatedActor: string | null;
  manual: boolean;
}

/**
 * DataHub's versioned aspect store (`metadata_aspect_v2`, entities-api §3): storage only. It validates nothing and
 * authorizes nothing; the entity service (`../service/`) is its only writer and does both before it writes.
 *
 * - `write(items, audit, check)`: every item in order in one transaction, all or none; the first that cannot be
 *   applied rejects with ItemWriteError naming its index. Per item (§3.2): a first value is version 0 with
 *   `systemMetadata.version` "1"; a different value archives the old row as the next history version; the same value
 *   again (key order ignored) adds no row and moves only `lastObserved`, `runId` and `lastRunId`. A new entity's key
 *   aspect (`item.key`) is written with its first aspect; a key aspect sent as an item is skipped. CREATE,
 *   CREATE_ENTITY, `If-None-Match: *` and `If-Version-Match` decide against what the transaction sees; a PATCH is
 *   applied to the latest value inside it and its result handed to `check`. The edges each new value declares and the
 *   entity's search document are replaced in the same commit, and `also.outbox`'s points are queued in it (outbox.ts).
 * - `latest(urns, aspects?)`: version 0 of every stored aspect (or of `aspects`) of each urn; an urn with none is
 *   absent from the map. The maps may be shared between callers (a cache no commit outlives): never change them. A
 *   read the cache answers is answered synchronously (a map, not a promise), so that a hot read costs no microtask.
 * - `get(urn, aspect, version = 0)`: one version; 0 the latest, 1..n history, a negative N the (max+N+1)th.
 * - `versions(urn, aspect)`: every version, the latest (0) first, then the history from the oldest.
 * - `exists(urn, options)`: whether the entity's key aspect is stored; soft-deleted counts unless asked not to.
 * - `isEmpty()`: whether no aspect at all is stored (a new installation).
 * - `deleteEntity(urn)`: every row of the urn, its edges and search document; answers the rows removed.
 * - `deleteAspects(urn, aspects)`: those aspects with every version and their edges, the entity reindexed; the rows removed.
 * - `relationships(urn, query)`: a page of the edges from or to `urn`, ordered by type then urn, and their total.
 * - `referencesTo(urn, type)`: the entities with an edge of `type` to `urn`, with the aspect of each declaring it.
 * - `reindex(progress?, batch?)`: the search index and the relationships rebuilt from the stored aspects; answers how many
 *   entities.
 * - `recent(count)`: the entities whose latest aspect was written most recently, newest first (a scan of version 0).
 * - `walk(urn, query)`: the entities reachable from `urn` over the edges `query` follows, within its hops, rows and
 *   time bounds (WalkQuery), each with its fewest hops (and shortest paths when asked); soft-deleted and never-stored
 *   entities left out unless asked.
 * - `adjacent(urn, query)`: the edges `query` follows from `urn`, one hop, with their stamps, ordered by type and urns.
 * - `runEntities(runId)`, `rollbackRun(urn, runId, options)`: the rollback of an ingestion run, one entity at a time.
 */
export interface AspectStore {
  migrate(): Promise<void>;
  write(items: readonly AspectWrite[], audit: Audit, check: ValueCheck, also?: { outbox?: readonly OutboxEntry[] }): Promise<WriteResult[]>;
  /** The time-series outbox (outbox.ts): queued points, oldest first, and their removal once relayed. */
  outbox: { pending(limit: number): Promise<OutboxEntry[]>; remove(ids: readonly string[]): Promise<void> };
  latest(urns: readonly string[], aspects?: readonly string[]): MaybePromise<Map<string, Map<string, StoredAspect>>>;
  get(urn: string, aspect: string, version?: number): Promise<StoredAspect | undefined>;
  versions(urn: string, aspect: string): Promise<StoredAspect[]>;
  exists(urn: string, options?: { includeSoftDeleted?: boolean }): Promise<boolean>;
  isEmpty(): Promise<boolean>;
  deleteEntity(urn: string): Promise<number>;
  deleteAspects(urn: string, aspects: readonly string[]): Promise<number>;
  relationships(urn: string, query: RelationshipQuery): Promise<{ total: number; relationships: { type: string; entity: string }[] }>;
  referencesTo(urn: string, type: string): Promise<{ urn: string; aspect: string }[]>;
  reindex(progress?: (done: number, total: number) => void, batch?: number): Promise<number>;
  recent(count: number): Promise<{ urn: string; lastWritten: number }[]>;
  /**
   * The latest `aspects` of every stored entity of one type (`urn:li:<entityType>:`), for the few-of-a-kind ones
   * (policies). The answer is shared until the next commit: callers must not change it.
   */
  latestOfType(entityType: string, aspects: readonly string[]): Promise<ReadonlyMap<string, ReadonlyMap<string, StoredAspect>>>;
  walk(urn: string, query: WalkQuery): Promise<WalkResult>;
  /** The entities with a latest aspect written by run `runId` (`systemMetadata.runId`), by urn; a scan of version 0. */
  runEntities(runId: string): Promise<string[]>;
  /**
   * One entity's aspects whose latest row run `runId` wrote, rolled back in one transaction (DataHub's
   * rollbackWithConditions): the run's newest versions removed, the newest version another run wrote made the latest
   * again, an aspect with none removed; the key among them removes the whole entity when `hardDelete`, else is kept.
   * With `dryRun` nothing changes: the answer says what would.
   */
  rollbackRun(urn: string, runId: string, options: { hardDelete: boolean; dryRun: boolean }): Promise<RunRollback>;
  adjacent(urn: string, query: Pick<WalkQuery, 'outgoing' | 'incoming' | 'between'>): Promise<AdjacentEdge[]>;
}

/** What a rollback did to one entity's aspects written by a run (`rollbackRun`). */
export interface RunRollback {
  /** Each aspect whose latest row the run wrote: its previous version restored, or (none surviving) removed. */
  aspects: { aspect: string; restored: boolean; key: boolean; version: number; createdOn: number; metadata: string }[];
  /** When the run created the entity: how many of its latest aspects other runs wrote (not `status`; DataHub's unsafe aspects). */
  unsafeAspects: number;
  /** The run created the entity and hard delete was asked: every row of it is gone. */
  entityDeleted: boolean;
  /** The run created the entity and soft delete was asked: the key stays, the caller marks the entity removed. */
  keyKept: boolean;
}

/** What may read the store without writing it (the host's tests, the CLI's counts). */
export type AspectReader = Omit<AspectStore, 'write' | 'deleteEntity' | 'deleteAspects' | 'migrate' | 'reindex' | 'outbox' | 'rollbackRun'>;
