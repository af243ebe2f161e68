import type { Scenario } from '../context.ts';
import { graphql } from '../http.ts';
import { runRounds, summarize, versusCeiling } from '../load.ts';
import { LINEAGE_SEARCH } from '../queries.ts';
import { ratioRow } from '../report.ts';
import * as requests from '../requests.ts';

const LINEAGE_P50_TARGET_MS = 50;

/**
 * searchAcrossLineage three hops downstream over `lineageEdges` edges (issue 31): one connection's p50, and req/s at
 * the run's connections as a ratio to the ceiling answering a page of the same shape from memory.
 */
export const lineageSearch: Scenario = {
  name: 'lineageSearch',
  title: 'searchAcrossLineage, 3 hops downstream',
  needsCeiling: true,
  async run(context) {
    const { config } = context;
    const trees = await context.fixtures.lineageTrees();
    const request = requests.lineageSearch(trees.roots);
    // One answer first: the walk finds a whole tree (39 datasets below the root).
    const first = await graphql<{ searchAcrossLineage: { total: number } }>(context.target, LINEAGE_SEARCH, {
      input: { urn: trees.roots[0], direction: 'DOWNSTREAM', query: '*', count: 10 },
    });
    const alone = summarize((await runRounds({ mds: context.target }, [request], { ...config, connections: 1 })).map((r) => r.mds));
    const result = await versusCeiling(context.target, context.ceiling!, [request], config);
    const edges = trees.edges.toLocaleString('en-US');
    return {
      rows: [
        {
          label: `searchAcrossLineage, 3 hops downstream over ${edges} edges, 10 of 39 results with paths and facets (1 connection)`,
          value: alone.p50Ms,
          unit: 'ms p50',
          note: `p99 ${alone.p99Ms} ms; edges written in ${trees.seconds} s`,
          target: { text: `p50 < ${LINEAGE_P50_TARGET_MS} ms`, met: alone.p50Ms < LINEAGE_P50_TARGET_MS },
        },
        ratioRow(`searchAcrossLineage, 3 hops over ${edges} edges`, result),
      ],
      details: {
        edges: trees.edges,
        firstTotal: first.searchAcrossLineage.total,
        roots: trees.roots.length,
        alone,
        connections: config.connections,
        ...result,
      },
    };
  },
};
