import type { BenchConfig } from './config.ts';
import { benchReadDatasetUrn, datasetAspects } from './dataset-fixture.ts';
import { graphql, inPool, postJson } from './http.ts';
import { median, type Target } from './load.ts';
import { ASPECTS, batchBody, fillPlan, indexNameOf } from './proposals.ts';
import { CREATE_TAG, WORDS } from './queries.ts';

/** Rows [from, to) of one aspect. */
interface RowRange {
  aspectNo: number;
  from: number;
  to: number;
}

interface IngestStats {
  rows: number;
  batches: number;
  seconds: number;
  docsPerSecond: number;
  batchMs: { p50: number; max: number };
}

/**
 * Sends `ranges` as ingestProposalBatch requests of `batchSize` proposals from `clients` concurrent clients.
 * Bodies are built just before sending (2 M proposals would not fit in memory at once); that cost is on the
 * harness's side of the clock, as a real client's would be.
 */
export async function ingest(target: Target, ranges: RowRange[], batchSize: number, clients: number): Promise<IngestStats> {
  const batches = ranges.flatMap(({ aspectNo, from, to }) => {
    const out: RowRange[] = [];
    for (let start = from; start < to; start += batchSize) out.push({ aspectNo, from: start, to: Math.min(to, start + batchSize) });
    return out;
  });
  const batchMs: number[] = [];
  const started = performance.now();
  await inPool(batches.length, clients, async (i) => {
    const { aspectNo, from, to } = batches[i]!;
    const body = batchBody(aspectNo, from, to);
    const sent = performance.now();
    await postJson(target, '/aspects?action=ingestProposalBatch', body);
    batchMs.push(performance.now() - sent);
  });
  const seconds = (performance.now() - started) / 1000;
  const rows = batches.reduce((sum, b) => sum + b.to - b.from, 0);
  return {
    rows,
    batches: batches.length,
    seconds: Math.round(seconds * 100) / 100,
    docsPerSecond: Math.round(rows / seconds),
    batchMs: { p50: Math.round(median(batchMs)), max: Math.round(Math.max(...batchMs)) },
  };
}

/**
 * Data several scenarios need, created once per run on first use (so `--only` works for any scenario), through
 * the public HTTP API as a user would.
 */
export class Fixtures {
  private readTagsOnce?: Promise<string[]>;
  private readDatasetsOnce?: Promise<string[]>;
  private lineageTreesOnce?: Promise<{ roots: string[]; edges: number; seconds: number }>;
  private searchTagsOnce?: Promise<{ tags: number; seconds: number }>;
  private timeseriesOnce?: Promise<IngestStats & { rowsPerIndex: Record<string, number> }>;

  constructor(
    private readonly target: Target,
    private readonly config: BenchConfig,
    private readonly runId: string,
  ) {}

  /** 100 existing tags that tag(urn) reads rotate over. */
  readTags(): Promise<string[]> {
    return (this.readTagsOnce ??= this.createTags('read', 100, (i) => ({ name: `Read tag ${i}` })));
  }

  /** 100 datasets (properties, tags, owners, 20 schema fields) that dataset(urn) reads rotate over. */
  readDatasets(): Promise<string[]> {
    return (this.readDatasetsOnce ??= (async () => {
      const urns = Array.from({ length: 100 }, (_, k) => benchReadDatasetUrn(this.runId, k));
      const proposals = urns.flatMap((urn, k) =>
        Object.entries(datasetAspects(k)).map(([aspectName, value]) => ({
          entityType: 'dataset',
          entityUrn: urn,
          changeType: 'UPSERT',
          aspectName,
          aspect: { contentType: 'application/json', value: JSON.stringify(value) },
        })),
      );
      await postJson(this.target, '/aspects?action=ingestProposalBatch', JSON.stringify({ proposals }));
      return urns;
    })());
  }

  /**
   * Lineage for searchAcrossLineage: `lineageEdges` edges as trees of 40 datasets, each a root with 3 downstream, 9
   * at two hops and 27 at three (39 edges a tree), every edge an upstreamLineage entry of the downstream dataset; the
   * roots hold a status aspect, so that they exist. Written through ingestProposalBatch, 1,000 proposals a request.
   */
  lineageTrees(): Promise<{ roots: string[]; edges: number; seconds: number }> {
    return (this.lineageTreesOnce ??= (async () => {
      const started = performance.now();
      const trees = Math.max(1, Math.floor(this.config.lineageEdges / 39));
      const urn = (t: number, n: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench_${this.runId}.lineage_${t}_${n},PROD)`;
      const proposal = (entityUrn: string, aspectName: string, value: unknown) => ({
        entityType: 'dataset',
        entityUrn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { contentType: 'application/json', value: JSON.stringify(value) },
      });
      const upstream = (dataset: string) => ({
        upstreams: [{ dataset, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:etl' } }],
      });
      // Node n of a tree (0 the root; 1-3, 4-12, 13-39 the three levels) is downstream of node floor((n - 1) / 3).
      const proposals = Array.from({ length: trees }, (_, t) => [
        proposal(urn(t, 0), 'status', { removed: false }),
        ...Array.from({ length: 39 }, (_, i) => proposal(urn(t, i + 1), 'upstreamLineage', upstream(urn(t, Math.floor(i / 3))))),
      ]).flat();
      const batches = Math.ceil(proposals.length / 1000);
      await inPool(batches, this.config.ingestClients, (b) =>
        postJson(
          this.target,
          '/aspects?action=ingestProposalBatch',
          JSON.stringify({ proposals: proposals.slice(b * 1000, (b + 1) * 1000) }),
        ),
      );
      const roots = Array.from({ length: Math.min(trees, 100) }, (_, t) => urn(t, 0));
      return { roots, edges: trees * 39, seconds: Math.round((performance.now() - started) / 10) / 100 };
    })());
  }

  /** `searchTags` tags whose descriptions each hold one of WORDS, for searchAcrossEntities. */
  searchTags(): Promise<{ tags: number; seconds: number }> {
    return (this.searchTagsOnce ??= (async () => {
      const started = performance.now();
      const urns = await this.createTags('search', this.config.searchTags, (i) => ({
        name: `Search tag ${i}`,
        description: `${WORDS[i % WORDS.length]} data owned by team ${i % 37}`,
      }));
      return { tags: urns.length, seconds: Math.round((performance.now() - started) / 10) / 100 };
    })());
  }

  /** The registry's 10 time-series indices filled with `timeseriesRows` rows; the first holds the rows to truncate. */
  timeseries() {
    return (this.timeseriesOnce ??= (async () => {
      const plan = fillPlan(this.config.timeseriesRows, this.config.truncateRows);
      const stats = await ingest(
        this.target,
        plan.map((rows, aspectNo) => ({ aspectNo, from: 0, to: rows })),
        this.config.ingestBatch,
        this.config.ingestClients,
      );
      return { ...stats, rowsPerIndex: Object.fromEntries(ASPECTS.map((a, i) => [indexNameOf(a), plan[i]!])) };
    })());
  }

  private async createTags(kind: string, count: number, fields: (i: number) => { name: string; description?: string }): Promise<string[]> {
    const urns: string[] = new Array(count);
    await inPool(count, 16, async (i) => {
      const input = { id: `bench-${this.runId}-${kind}-${i}`, ...fields(i) };
      urns[i] = (await graphql<{ createTag: string }>(this.target, CREATE_TAG, { input })).createTag;
    });
    return urns;
  }
}
