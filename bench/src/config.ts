/** Sizes and durations of a run: the full benchmark, or a smoke run that only proves the harness works. */
export interface BenchConfig {
  mode: 'full' | 'smoke';
  /** autocannon connections for every throughput scenario, mds and ceiling alike. */
  connections: number;
  rounds: number;
  roundS: number;
  /** Unrecorded run of each server before the rounds (0: none). */
  warmupS: number;
  /** Tags that exist before searchAcrossEntities is measured. */
  searchTags: number;
  /** Rows over all time-series indices before getIndexSizes is measured. */
  timeseriesRows: number;
  /** Rows one truncation deletes (that index holds them plus its share of the rest). */
  truncateRows: number;
  /** Proposals per ingestProposalBatch request, and how many clients send them at once. */
  ingestBatch: number;
  ingestClients: number;
  /** Versioned aspects the entity ingestion scenario writes (four per dataset: 100k datasets for the search scenario). */
  entityAspects: number;
  /** Lineage edges (upstreamLineage) the lineage search scenario writes: trees of 40 datasets, 3 hops deep. */
  lineageEdges: number;
  /** Size of the DataHub JSON file `mds ingest` loads, in MB. */
  ingestFileMb: number;
  /** Steady rate (requests/s) of the tag reader that runs during truncations. */
  readerRate: number;
  coldStarts: number;
  soakS: number;
  /** RSS is taken as the soak's baseline after this many seconds. */
  soakWarmupS: number;
}

export const FULL: BenchConfig = {
  mode: 'full',
  connections: 32,
  rounds: 3,
  roundS: 5,
  warmupS: 1,
  searchTags: 10_000,
  timeseriesRows: 2_000_000,
  truncateRows: 1_000_000,
  ingestBatch: 5_000,
  ingestClients: 4,
  entityAspects: 400_000,
  lineageEdges: 100_000,
  ingestFileMb: 100,
  readerRate: 200,
  coldStarts: 5,
  soakS: 60,
  soakWarmupS: 10,
};

export const SMOKE: BenchConfig = {
  mode: 'smoke',
  connections: 32,
  rounds: 1,
  roundS: 1,
  warmupS: 0,
  searchTags: 200,
  timeseriesRows: 20_000,
  truncateRows: 10_000,
  ingestBatch: 1_000,
  ingestClients: 2,
  entityAspects: 4_000,
  lineageEdges: 2_000,
  ingestFileMb: 2,
  readerRate: 50,
  coldStarts: 1,
  soakS: 2,
  soakWarmupS: 1,
};
