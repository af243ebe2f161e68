/** Wire types of the Rest.li actions (spec 6), as the server sends and takes them. */

export interface IndexSize {
  /** Lower-case, parsed back from the index name. */
  aspectName: string;
  entityName: string;
  indexName: string;
  /** Decimal MB (bytes / 1,000,000); `sizeMb` and `sizeInMb` carry the same number. */
  sizeMb: number;
  sizeInMb: number;
}

export interface TruncateTimeseriesAspectParams {
  entityType: string;
  aspect: string;
  /** Rows with `timestampMillis <= endTimeMillis` go. */
  endTimeMillis: number;
  /** Server default: true (nothing is deleted; the answer says what would be). */
  dryRun?: boolean;
  batchSize?: number;
  timeoutSeconds?: number;
  forceDeleteByQuery?: boolean;
  forceReindex?: boolean;
}

/** Elasticsearch's BulkByScroll status: the counts a poller shows. */
export interface BulkByScrollStatus {
  total: number;
  deleted: number;
  created?: number;
  batches?: number;
  [field: string]: unknown;
}

/** getEsTaskStatus's value, parsed from the JSON text the server sends. */
export type EsTaskStatus =
  | { completed: boolean; taskId: string; status: BulkByScrollStatus; runTimeNanos: number; error?: string }
  /** The task is unknown: `Could not get task status for <node>:<n>`. */
  | { completed?: undefined; error: string };

/** A MetadataChangeProposal of a time-series aspect; `aspect.value` is the aspect as JSON *text*. */
export interface MetadataChangeProposal {
  entityType: string;
  entityUrn: string;
  changeType: 'UPSERT';
  aspectName: string;
  aspect: { contentType: 'application/json'; value: string };
  systemMetadata?: Record<string, unknown>;
}

/** Builds a proposal from an aspect object (it must carry `timestampMillis`), encoding its value as DataHub expects. */
export function timeseriesProposal(input: {
  entityType: string;
  entityUrn: string;
  aspectName: string;
  value: { timestampMillis: number; [field: string]: unknown };
  systemMetadata?: Record<string, unknown>;
}): MetadataChangeProposal {
  const { value, systemMetadata, ...ids } = input;
  return {
    ...ids,
    changeType: 'UPSERT',
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
    ...(systemMetadata && { systemMetadata }),
  };
}
