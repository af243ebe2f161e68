import { startBareStoreProcess } from '../bare-store/process.ts';
import type { BenchContext, Scenario } from '../context.ts';
import { fsyncLatency } from '../disk.ts';
import { versusCeiling, type Comparison, type LoadRequest, type Target } from '../load.ts';
import { ratioRow, type Row } from '../report.ts';
import * as requests from '../requests.ts';

/** The least ratio a scenario is held to: the same on every database, or one on SQLite and one on PostgreSQL. */
type MinRatio = number | { sqlite: number; postgres: number } | undefined;

/** The three GraphQL scenarios: mds against the ceiling with the same requests, alternating rounds. */
function graphqlScenario(
  name: string,
  title: string,
  minRatio: MinRatio,
  prepare: (context: BenchContext) => Promise<{ request: LoadRequest; label?: string; details?: Record<string, unknown> }>,
  options: {
    /** Writes: the data directory's fsync latency, measured right after the rounds, goes in the row's note. */
    durable?: boolean;
    /** On SQLite, the bare store answers the same requests in the same rounds: the floor row (floorRow). */
    floor?: boolean;
  } = {},
): Scenario {
  return {
    name,
    title,
    needsCeiling: true,
    async run(context) {
      const { request, label, details } = await prepare(context);
      const { config } = context;
      const bareProcess = options.floor && !context.target.databaseCpu ? await startBareStoreProcess() : undefined;
      const alongside: { bareStore?: Target } = bareProcess
        ? { bareStore: { url: bareProcess.url, token: 'bare', pid: bareProcess.pid } }
        : {};
      const result = await versusCeiling(context.target, context.ceiling!, [request], config, alongside).finally(() => bareProcess?.stop());
      // Only mds on PostgreSQL has a database's CPU to charge apart.
      const min = typeof minRatio === 'object' ? (context.target.databaseCpu ? minRatio.postgres : minRatio.sqlite) : minRatio;
      const rows = [ratioRow(label ?? title, result, min)];
      const bare = result.others.bareStore;
      if (bare) rows.push(floorRow(title, bare, result));
      if (!options.durable) return { rows, details: { ...details, connections: config.connections, ...result } };
      const fsync = fsyncLatency(context.mds.dataDir);
      rows[0]!.note += `; disk fsync p50 ${fsync.p50Ms} ms, p90 ${fsync.p90Ms} ms (each commit waits for one)`;
      return { rows, details: { ...details, connections: config.connections, ...result, fsync } };
    },
  };
}

/**
 * The bare store against the ceiling on the same requests: what mds's store and search index alone cost a request
 * (bare-store/: the same rows written, no GraphQL, no check). mds does all of that and more, so its ratio cannot pass
 * this one; no target (it is a bound, not a goal).
 */
function floorRow(title: string, bare: Comparison, mds: Comparison): Row {
  const row = ratioRow(
    `${title}: its floor, the bare store answering the same requests (mds's store and search index alone: no GraphQL, no check)`,
    bare,
  );
  row.note +=
    `; mds ${mds.mds.cpuUsPerRequest} µs. mds writes what it writes and answers GraphQL besides: ` +
    'no server over this store reaches a higher ratio';
  return row;
}

export const createTag = graphqlScenario(
  'createTag',
  'createTag (fresh ids)',
  0.5,
  async (context) => ({ request: requests.createTag(context.runId) }),
  { durable: true, floor: true },
);

// On PostgreSQL every request reads its token and the tag over the network, nothing cached (issue 20's target).
export const tagRead = graphqlScenario('tag', 'tag(urn), existing tag', { sqlite: 0.6, postgres: 0.3 }, async (context) => ({
  request: requests.tagRead(await context.fixtures.readTags()),
}));

export const search = graphqlScenario('searchAcrossEntities', 'searchAcrossEntities', undefined, async (context) => {
  const created = await context.fixtures.searchTags();
  return {
    request: requests.search(),
    label: `searchAcrossEntities, one word over ${created.tags.toLocaleString('en-US')} tags`,
    details: { tagsCreated: created.tags, tagCreationSeconds: created.seconds },
  };
});

export const datasetRead = graphqlScenario(
  'datasetRead',
  'dataset(urn) with properties, tags, owners and 20 schema fields',
  0.5,
  async (context) => ({
    request: requests.datasetRead(await context.fixtures.readDatasets()),
  }),
);
