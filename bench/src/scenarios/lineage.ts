import type { Scenario } from '../context.ts';
import { graphql } from '../http.ts';
import { median, runRounds, summarize, versusCeiling } from '../load.ts';
import { LINEAGE_SEARCH } from '../queries.ts';
import { ratioRow } from '../report.ts';
import * as requests from '../requests.ts';
import { uiOperation } from '../ui-documents.ts';
import { uiRatioRow } from './ui-documents.ts';

const LINEAGE_P50_TARGET_MS = 50;
/** Calls of the UI's document timed one after another (the first, which parses it, not counted). */
const UI_CALLS = 10;

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
    // The same walk asked with the UI's own document (search.graphql's searchAcrossLineage and its fragments: every
    // field the impact analysis list shows of each result), one connection; against the ceiling's replay of its answers.
    const uiQuery = uiOperation('searchAcrossLineage');
    // The UI sends `types: []` besides.
    const uiVariables = trees.roots.map((urn) => ({ input: { types: [], ...requests.lineageInput(urn) } }));
    // The first answer parses and validates the document (a few hundred fields): not counted. Then calls one after
    // another, each timed (not autocannon's rounds: an answer may take longer than a round).
    await graphql(context.target, uiQuery, uiVariables[0]!);
    const uiMs: number[] = [];
    for (let i = 0; i < UI_CALLS; i++) {
      const sent = performance.now();
      await graphql(context.target, uiQuery, uiVariables[i % uiVariables.length]!);
      uiMs.push(performance.now() - sent);
    }
    const ui = { p50Ms: Math.round(median(uiMs)), maxMs: Math.round(Math.max(...uiMs)), calls: UI_CALLS };
    const result = await versusCeiling(context.target, context.ceiling!, [request], config);
    const edges = trees.edges.toLocaleString('en-US');
    const uiRatio = await uiRatioRow(
      context,
      uiQuery,
      uiVariables,
      `the UI's searchAcrossLineage document over ${edges} edges, vs graphql-js replaying mds's answers`,
    );
    return {
      rows: [
        {
          label: `searchAcrossLineage, 3 hops downstream over ${edges} edges, 10 of 39 results with paths and facets (1 connection)`,
          value: alone.p50Ms,
          unit: 'ms p50',
          note: `p99 ${alone.p99Ms} ms; edges written in ${trees.seconds} s`,
          target: { text: `p50 < ${LINEAGE_P50_TARGET_MS} ms`, met: alone.p50Ms < LINEAGE_P50_TARGET_MS },
        },
        {
          label: `the UI's searchAcrossLineage document, 3 hops downstream over ${edges} edges, 10 of 39 results (1 connection)`,
          value: ui.p50Ms,
          unit: 'ms p50',
          note: `max ${ui.maxMs} ms of ${ui.calls} calls in turn`,
          target: { text: `p50 < ${LINEAGE_P50_TARGET_MS} ms`, met: ui.p50Ms < LINEAGE_P50_TARGET_MS },
        },
        ratioRow(`searchAcrossLineage, 3 hops over ${edges} edges`, result),
        uiRatio.row,
      ],
      details: {
        edges: trees.edges,
        firstTotal: first.searchAcrossLineage.total,
        roots: trees.roots.length,
        alone,
        ui,
        uiRatio: uiRatio.result,
        connections: config.connections,
        ...result,
      },
    };
  },
};
