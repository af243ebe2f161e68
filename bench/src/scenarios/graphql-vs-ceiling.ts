import type { BenchContext, Scenario } from '../context.ts';
import { fsyncLatency } from '../disk.ts';
import { versusCeiling, type LoadRequest } from '../load.ts';
import { ratioRow } from '../report.ts';
import * as requests from '../requests.ts';

/** The least ratio a scenario is held to: the same on every database, or one on SQLite and one on PostgreSQL. */
type MinRatio = number | { sqlite: number; postgres: number } | undefined;

/** The three GraphQL scenarios: mds against the ceiling with the same requests, alternating rounds. */
function graphqlScenario(
  name: string,
  title: string,
  minRatio: MinRatio,
  prepare: (context: BenchContext) => Promise<{ request: LoadRequest; label?: string; details?: Record<string, unknown> }>,
  /** Writes: the data directory's fsync latency, measured right after the rounds, goes in the row's note. */
  durable = false,
): Scenario {
  return {
    name,
    title,
    needsCeiling: true,
    async run(context) {
      const { request, label, details } = await prepare(context);
      const { config } = context;
      const result = await versusCeiling(context.target, context.ceiling!, [request], config);
      // Only mds on PostgreSQL has a database's CPU to charge apart.
      const min = typeof minRatio === 'object' ? (context.target.databaseCpu ? minRatio.postgres : minRatio.sqlite) : minRatio;
      const row = ratioRow(label ?? title, result, min);
      if (!durable) return { rows: [row], details: { ...details, connections: config.connections, ...result } };
      const fsync = fsyncLatency(context.mds.dataDir);
      row.note += `; disk fsync p50 ${fsync.p50Ms} ms, p90 ${fsync.p90Ms} ms (each commit waits for one)`;
      return { rows: [row], details: { ...details, connections: config.connections, ...result, fsync } };
    },
  };
}

export const createTag = graphqlScenario(
  'createTag',
  'createTag (fresh ids)',
  0.5,
  async (context) => ({ request: requests.createTag(context.runId) }),
  true,
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
