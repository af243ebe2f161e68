/**
 * The port every time-series backend implements (embedded SQLite, PostgreSQL, Elasticsearch/OpenSearch). The domain layer
 * (actions, seed) decides names, messages and rules; a store only keeps documents and runs truncations.
 */

/** One time-series document, as DataHub's TimeseriesAspectTransformer shapes it. */
export interface TimeseriesDocument {
  /** Full index name, prefix included. */
  index: string;
  /** Identity hash (hex): writing the same id again overwrites. */
  id: string;
  urn: string;
  timestampMillis: number;
  /** JSON text of the aspect's `eventGranularity`, as DataHub indexes it. */
  eventGranularity: string | null;
  messageId: string | null;
  /** `{partition}` or `{timePartition: <JSON text>}`. */
  partitionSpec: PartitionSpecDocument | null;
  /** `systemMetadata.runId`, kept for rollbacks. */
  runId: string | null;
  /** The aspect value, as validated JSON text of an object (kept verbatim: no second serialisation). */
  eventJson: string;
  /** JSON text of the proposal's systemMetadata, when it had one. */
  systemMetadataJson: string | null;
}

export type PartitionSpecDocument = { partition: string } | { timePartition: string };

export interface IndexSize {
  indexName: string;
  /**
   * Bytes on disk: primary-shard store size (Elasticsearch), pages of the table and its indexes (SQLite), or the
   * files of the table, its TOAST and its indexes (PostgreSQL).
   */
  sizeBytes: number;
}

/** Rows an index holds, and how many of them a truncation up to `endTimeMillis` would remove. */
export interface TruncationCount {
  matching: number;
  total: number;
}

/** `delete`: remove matching rows in batches. `reindex`: copy the survivors into a fresh index and swap it in. */
export type TruncationMode = 'delete' | 'reindex';

export interface TruncationRequest {
  index: string;
  /** Rows with `timestampMillis <= endTimeMillis` go. */
  endTimeMillis: number;
  mode: TruncationMode;
  /** Rows per batch (one short transaction, or one scroll page). */
  batchSize: number;
  /** How long one batch may wait (for the write lock, or for shards). */
  timeoutSeconds: number;
  /** Throttle (Elasticsearch's `requests_per_second`, counted in rows); absent means as fast as possible. */
  rowsPerSecond?: number;
}

/** A task id split into its parts: `<node>:<number>`. */
export interface TaskRef {
  node: string;
  id: number;
}

export interface TaskStatus {
  completed: boolean;
  /** `<node>:<number>` */
  taskId: string;
  /** Elasticsearch's BulkByScroll status: `{total, deleted, batches, ...}`. */
  status: Record<string, unknown>;
  runTimeNanos: number;
  /** Set when the task ended without doing all its work (failure, restart, cancellation). */
  error?: string;
}

/**
 * Truncation tasks by state. Embedded and PostgreSQL: every task in its table. Elasticsearch: the tasks running in the cluster now,
 * and those this process saw finish (the cluster keeps no count of finished ones).
 */
export type TaskCounts = Record<'running' | 'completed' | 'failed', number>;

/** Newest first unless ASCENDING (by timestampMillis). */
export type ValuesOrder = 'ASCENDING' | 'DESCENDING';

export interface ValuesRequest {
  /** Full index name, prefix included. */
  index: string;
  urn: string;
  /** Inclusive lower bound of timestampMillis; none when absent. */
  startTimeMillis?: number;
  /** Inclusive upper bound of timestampMillis; none when absent. */
  endTimeMillis?: number;
  /** At most this many points. */
  limit: number;
  /** DESCENDING (newest first) when absent. */
  order?: ValuesOrder;
}

/** One stored point, as `values` answers it. */
export interface TimeseriesValue {
  /** The aspect value's JSON text. */
  eventJson: string;
  systemMetadataJson: string | null;
  timestampMillis: number;
}

export interface DeleteByUrnRequest {
  urn: string;
  /** Full index names; all of the store's time-series indices (under its prefix) when absent. Missing ones are skipped. */
  indices?: readonly string[];
  /** Inclusive window on timestampMillis; unbounded on a side left absent. */
  startTimeMillis?: number;
  endTimeMillis?: number;
}

export interface TimeseriesStore {
  readonly kind: 'embedded' | 'postgres' | 'elasticsearch';
  /** `INDEX_PREFIX` this store names its indices with ('' for none). */
  readonly indexPrefix: string;
  /** Writes (insert or overwrite by id) a batch of documents; all or nothing where the backend allows it. */
  write(documents: readonly TimeseriesDocument[]): Promise<void>;
  /** Every existing time-series index under the prefix, in no particular order. */
  indexSizes(): Promise<IndexSize[]>;
  /** For dry runs; an index that does not exist yet counts as empty. */
  countForTruncation(index: string, endTimeMillis: number): Promise<TruncationCount>;
  /** Starts a truncation in the background and returns its task id; 409 `conflict` while one runs on that index. */
  startTruncation(request: TruncationRequest): Promise<string>;
  /** Null when the task is unknown (another node, never existed, or forgotten by the backend). */
  taskStatus(task: TaskRef): Promise<TaskStatus | null>;
  /** Points of one index for one urn, window inclusive, newest first unless order ASCENDING, at most `limit`. */
  values(request: ValuesRequest): Promise<TimeseriesValue[]>;
  /**
   * Deletes the points of `urn` in `indices` (all of the store's time-series indices when absent), window
   * inclusive; answers how many were deleted.
   */
  deleteByUrn(request: DeleteByUrnRequest): Promise<number>;
  /** Resolves when the backend can serve; otherwise throws the 503 `unavailable` error naming why (readiness). */
  checkReady(): Promise<void>;
  /** Truncation tasks by state, for metrics (see TaskCounts). */
  taskCounts(): Promise<TaskCounts>;
  /** Releases connections (PostgreSQL: not the database, which is the server's); a running embedded or PostgreSQL truncation is stopped and reports an error. */
  close(): Promise<void>;
}
