import type { BenchContext, Scenario } from '../context.ts';
import { versusCeiling, type LoadRequest } from '../load.ts';
import { ratioRow } from '../report.ts';
import * as requests from '../requests.ts';

/** The three GraphQL scenarios: mds against the ceiling with the same requests, alternating rounds. */
function graphqlScenario(
  name: string,
  title: string,
  minRatio: number | undefined,
  prepare: (context: BenchContext) => Promise<{ request: LoadRequest; label?: string; details?: Record<string, unknown> }>,
): Scenario {
  return {
    name,
    title,
    needsCeiling: true,
    async run(context) {
      const { request, label, details } = await prepare(context);
      const { config } = context;
      const result = await versusCeiling(context.target, context.ceiling!, [request], config);
      return { rows: [ratioRow(label ?? title, result, minRatio)], details: { ...details, connections: config.connections, ...result } };
    },
  };
}

export const createTag = graphqlScenario('createTag', 'createTag (fresh ids)', 0.5, async (context) => ({
  request: requests.createTag(context.runId),
}));

export const tagRead = graphqlScenario('tag', 'tag(urn), existing tag', 0.6, async (context) => ({
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

export const datasetRead = graphqlScenario('datasetRead', 'dataset(urn) with properties, tags, owners and 20 schema fields', 0.5, async (context) => ({
  request: requests.datasetRead(await context.fixtures.readDatasets()),
}));
