/** Where a proposal sits in a request, for messages: `{action: 'ingestProposalBatch', path: 'proposals.3'}`. */
export interface ProposalPlace {
  action: string;
  path: string;
}

export interface PlacedProposal {
  proposal: unknown;
  place: ProposalPlace;
}

/** What an ingestion did, item by item summed up (the CLI prints it). */
export interface IngestSummary {
  /** New aspect versions (and time-series points) written. */
  written: number;
  /** Items equal to the stored value: only their systemMetadata moved. */
  unchanged: number;
  /** Conditional items that did nothing (`If-None-Match: *` on an existing aspect). */
  skipped: number;
}

/**
 * The time-series store's side of ingestion (@mds/timeseries provides it): the proposals whose aspect is a
 * time-series one are handed over as sent, all checked (`prepare`) before any is written (`write`).
 */
export interface TimeseriesIngestPort<Document = unknown> {
  /** Whether `aspectName` is a time-series aspect of `entityType` (both matched case-insensitively). */
  accepts(entityType: string, aspectName: string): boolean;
  /** The document to index for the proposal, or a 400 naming the parameter at fault. */
  prepare(proposal: unknown, place: ProposalPlace): Document;
  /** Writes prepared documents all or nothing, where the backend allows it. */
  write(documents: readonly Document[]): Promise<void>;
  /** One entity's points, of one aspect or of every one its type has, in an inclusive window (open when absent). */
  deleteEntity(request: {
    urn: string;
    entityType: string;
    aspectName?: string;
    startTimeMillis?: number;
    endTimeMillis?: number;
  }): Promise<number>;
  /** The newest point of one entity's time-series aspect, if any (`/entitiesV2` answers it as a TIMESERIES aspect). */
  latest(request: { urn: string; entityType: string; aspectName: string }): Promise<LatestPoint | undefined>;
}

export interface LatestPoint {
  timestampMillis: number;
  value: unknown;
  systemMetadata: unknown;
}

/** One entity's points of one time-series aspect, newest first (`@mds/timeseries`' reader). */
export type TimeseriesReader = (request: PointsRequest) => Promise<Record<string, unknown>[]>;

export interface PointsRequest {
  entityType: string;
  aspect: string;
  urn: string;
  startTimeMillis?: number;
  endTimeMillis?: number;
  limit: number;
}
