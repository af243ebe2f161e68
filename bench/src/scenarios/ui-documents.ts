import { Kind, parse, print, visit, type SelectionSetNode } from 'graphql';
import type { BenchContext, Scenario } from '../context.ts';
import { schemaMetadataOf } from '../dataset-fixture.ts';
import { benchDatasetUrn, entityProposal, ENTITY_ASPECTS, searchPageProposals } from '../entity-proposals.ts';
import { graphql, inPool, postJson } from '../http.ts';
import { runRounds, summarize, versusCeiling, type LoadRequest } from '../load.ts';
import { graphqlBody } from '../queries.ts';
import { ratioRow, type Row } from '../report.ts';
import { uiOperation } from '../ui-documents.ts';

/** Issue 31's targets for the UI's own documents, one connection. */
const SEARCH_PAGE_P50_TARGET_MS = 50;
const DATASET_PAGE_P50_TARGET_MS = 15;
// Small requests: a batch of new datasets with schemas and lineage takes ~2 ms a proposal to index on a busy machine.
const PROPOSALS_PER_BATCH = 250;
/** Searched in turn, as entitySearch does: a description word (~5 % of the datasets), two words, a name. */
const SEARCH_WORDS = ['invoices', 'churn', 'ledger audits', 'table_4242'];

/** The dataset page's dataset (issue 31): 200 fields, 10 tags, 5 owners; the page is read for 10 such datasets in turn. */
const PAGE_FIELDS = 200;
const PAGE_TAGS = 10;
const PAGE_OWNERS = 5;
const PAGE_DATASETS = 10;
const OWNER_TYPES = ['TECHNICAL_OWNER', 'BUSINESS_OWNER', 'DATA_STEWARD'];

const proposalOf = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
  entityType,
  entityUrn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});

async function ingestAll(context: BenchContext, proposals: unknown[]): Promise<void> {
  await inPool(Math.ceil(proposals.length / PROPOSALS_PER_BATCH), context.config.ingestClients, (b) =>
    postJson(
      context.target,
      '/aspects?action=ingestProposalBatch',
      JSON.stringify({ proposals: proposals.slice(b * PROPOSALS_PER_BATCH, (b + 1) * PROPOSALS_PER_BATCH) }),
    ).then(() => undefined),
  );
}

/** Whether `urn` has `aspect` stored (GET /aspects answers 404 when not). */
async function hasAspect(context: BenchContext, urn: string, aspect: string): Promise<boolean> {
  const response = await fetch(new URL(`/aspects/${encodeURIComponent(urn)}?aspect=${aspect}&version=0`, context.target.url), {
    headers: { authorization: `Bearer ${context.target.token}` },
  });
  await response.arrayBuffer();
  if (response.status !== 200 && response.status !== 404) throw new Error(`GET /aspects answered ${response.status}`);
  return response.status === 200;
}

/** One connection, the run's rounds: the latency of one answer, the way one user's browser waits for it. */
async function latencyRow(context: BenchContext, requests: LoadRequest[], label: string, targetMs: number, note: string) {
  const rounds = (await runRounds({ mds: context.target }, requests, { ...context.config, connections: 1 })).map((r) => r.mds);
  // A round in which nothing was answered has no latency to report (autocannon's p50 would read 0).
  const empty = rounds.findIndex((r) => r.requests === 0);
  if (empty >= 0) throw new Error(`${label}: no answer within round ${empty + 1} (${context.config.roundS} s)`);
  const alone = summarize(rounds);
  const row: Row = {
    label,
    value: alone.p50Ms,
    unit: 'ms p50',
    note: `p99 ${alone.p99Ms} ms, server CPU ${Math.round(alone.cpuUsPerRequest)} µs/request; ${note}`,
    target: { text: `p50 < ${targetMs} ms`, met: alone.p50Ms < targetMs },
  };
  return { row, alone };
}

const graphqlRequest = (bodies: string[]): LoadRequest => {
  let n = 0;
  return { method: 'POST', path: '/api/graphql', body: () => bodies[n++ % bodies.length]! };
};

const UI_RATIO_CONNECTIONS = 4;

/** A document with `__typename` in every selection set, so that an answer to it names the type of every object. */
function withTypenames(query: string): string {
  return print(
    visit(parse(query), {
      SelectionSet: (node: SelectionSetNode) =>
        node.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename')
          ? undefined
          : { ...node, selections: [...node.selections, { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }] },
    }),
  );
}

/**
 * One of the UI's documents against the ceiling (issue 31: ratios reported): mds's answer to each variables object is
 * recorded (with every `__typename`) and handed to the ceiling, which then executes the same document with graphql-js
 * over that answer from memory; both are loaded alike (UI_RATIO_CONNECTIONS connections, alternating rounds).
 */
export async function uiRatioRow(context: BenchContext, query: string, variables: Record<string, unknown>[], label: string) {
  const recorded = withTypenames(query);
  for (const v of variables) {
    const data = await graphql(context.target, recorded, v);
    await postJson(context.ceiling!, '/replay', JSON.stringify({ query, variables: v, data }));
  }
  // Fewer connections than the run's: one such answer takes tens of milliseconds, and four in flight keep the server busy.
  const result = await versusCeiling(context.target, context.ceiling!, [graphqlRequest(variables.map((v) => graphqlBody(query, v)))], {
    ...context.config,
    connections: UI_RATIO_CONNECTIONS,
  });
  return { row: ratioRow(label, result), result };
}

/**
 * Issue 31: the search results page as DataHub's UI asks it (its `getSearchResultsForMultiple` document and variables),
 * 10 results over the datasets of entityIngestBatch (`entityAspects / 4`: 100 k), each also given a schema and an
 * upstream. The datasets are written here when entityIngestBatch did not run.
 */
export const uiSearchPage: Scenario = {
  name: 'uiSearchPage',
  title: "the UI's search page (getSearchResultsForMultiple)",
  needsCeiling: true,
  async run(context) {
    const { config, runId } = context;
    const datasets = Math.floor(config.entityAspects / ENTITY_ASPECTS.length);
    const started = performance.now();
    const written = await hasAspect(context, benchDatasetUrn(runId, datasets - 1), 'datasetProperties');
    const proposals = Array.from({ length: datasets }, (_, k) => [
      ...(written ? [] : ENTITY_ASPECTS.map((_, a) => entityProposal(runId, k * ENTITY_ASPECTS.length + a))),
      ...searchPageProposals(runId, k),
    ]).flat();
    await ingestAll(context, proposals);
    const fillSeconds = Math.round((performance.now() - started) / 100) / 10;

    const query = uiOperation('getSearchResultsForMultiple');
    const variables = (word: string) => ({
      input: {
        types: [],
        query: word,
        start: 0,
        count: 10,
        filters: [],
        orFilters: [],
        searchFlags: { getSuggestions: true, includeStructuredPropertyFacets: true },
      },
    });
    // One answer first: every result must be a dataset of the fixture, answered without errors (graphql throws).
    const first = await graphql<{ searchAcrossEntities: { total: number; searchResults: unknown[] } }>(
      context.target,
      query,
      variables(SEARCH_WORDS[0]!),
    );
    if (first.searchAcrossEntities.searchResults.length !== 10) {
      throw new Error(`getSearchResultsForMultiple found ${first.searchAcrossEntities.searchResults.length} results, not 10`);
    }
    const count = datasets.toLocaleString('en-US');
    const { row, alone } = await latencyRow(
      context,
      [graphqlRequest(SEARCH_WORDS.map((word) => graphqlBody(query, variables(word))))],
      `the UI's getSearchResultsForMultiple, 10 results over ${count} datasets with schemas, tags, owners and lineage (1 connection)`,
      SEARCH_PAGE_P50_TARGET_MS,
      `words: ${SEARCH_WORDS.join(' / ')}; ${proposals.length.toLocaleString('en-US')} aspects written in ${fillSeconds} s`,
    );
    const ratio = await uiRatioRow(
      context,
      query,
      SEARCH_WORDS.map((word) => variables(word)),
      `the UI's getSearchResultsForMultiple over ${count} datasets, vs graphql-js replaying mds's answers`,
    );
    return {
      rows: [row, ratio.row],
      details: {
        datasets,
        firstTotal: first.searchAcrossEntities.total,
        proposals: proposals.length,
        fillSeconds,
        alone,
        ratio: ratio.result,
      },
    };
  },
};

/**
 * Issue 31: the dataset page as DataHub's UI opens it (its `getDataset` document), on datasets of 200 fields, 10 tags
 * and 5 owners, the tags and owners being entities of their own (names, colors, display names).
 */
export const uiDatasetPage: Scenario = {
  name: 'uiDatasetPage',
  title: "the UI's dataset page (getDataset)",
  needsCeiling: true,
  async run(context) {
    const { runId } = context;
    const tag = (i: number) => `urn:li:tag:bench_${runId}_page_${i}`;
    const owner = (i: number) => `urn:li:corpuser:bench_${runId}_owner_${i}`;
    const dataset = (k: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench_${runId}.page_${k},PROD)`;
    const proposals = [
      ...Array.from({ length: PAGE_TAGS }, (_, i) =>
        proposalOf('tag', tag(i), 'tagProperties', { name: `Page tag ${i}`, description: `Tag ${i} of the page`, colorHex: '#1890ff' }),
      ),
      ...Array.from({ length: PAGE_OWNERS }, (_, i) =>
        proposalOf('corpuser', owner(i), 'corpUserInfo', {
          active: true,
          displayName: `Owner ${i}`,
          email: `owner${i}@example.com`,
          title: 'Engineer',
        }),
      ),
      ...Array.from({ length: PAGE_DATASETS }, (_, k) => [
        proposalOf('dataset', dataset(k), 'datasetProperties', {
          name: `page_${k}`,
          description: 'A dataset the UI opens.',
          customProperties: { team: 'bench' },
        }),
        proposalOf('dataset', dataset(k), 'schemaMetadata', schemaMetadataOf(`page_${k}`, PAGE_FIELDS)),
        proposalOf('dataset', dataset(k), 'globalTags', { tags: Array.from({ length: PAGE_TAGS }, (_, i) => ({ tag: tag(i) })) }),
        proposalOf('dataset', dataset(k), 'ownership', {
          owners: Array.from({ length: PAGE_OWNERS }, (_, i) => ({ owner: owner(i), type: OWNER_TYPES[i % OWNER_TYPES.length] })),
          lastModified: { time: 0, actor: 'urn:li:corpuser:etl' },
        }),
        proposalOf('dataset', dataset(k), 'status', { removed: false }),
      ]).flat(),
    ];
    await ingestAll(context, proposals);

    // The page's first query (getDataset: the header, tags, owners, the side panel) and its schema tab's
    // (getDatasetSchema: every field with its tags, terms and descriptions). One answer of each first: what the page
    // shows must all be there (graphql throws on errors).
    type Page = { dataset: { globalTags?: { tags: unknown[] }; ownership?: { owners: unknown[] } } };
    const page = await graphql<Page>(context.target, uiOperation('getDataset'), { urn: dataset(0) });
    const shown = [page.dataset.globalTags?.tags.length, page.dataset.ownership?.owners.length];
    if (shown.join() !== [PAGE_TAGS, PAGE_OWNERS].join()) {
      throw new Error(`getDataset showed ${shown.join('/')} tags/owners, not ${PAGE_TAGS}/${PAGE_OWNERS}`);
    }
    type Schema = { dataset: { schemaMetadata?: { fields: unknown[] } } };
    const schema = await graphql<Schema>(context.target, uiOperation('getDatasetSchema'), { urn: dataset(0) });
    if (schema.dataset.schemaMetadata?.fields.length !== PAGE_FIELDS) {
      throw new Error(`getDatasetSchema showed ${schema.dataset.schemaMetadata?.fields.length} fields, not ${PAGE_FIELDS}`);
    }
    const size = (answer: unknown) => Math.round(Buffer.byteLength(JSON.stringify(answer)) / 1024);
    const rowOf = (name: string, label: string, target: number, answer: unknown) =>
      latencyRow(
        context,
        [graphqlRequest(Array.from({ length: PAGE_DATASETS }, (_, k) => graphqlBody(uiOperation(name), { urn: dataset(k) })))],
        `the UI's ${name}, a dataset of ${PAGE_FIELDS} fields, ${PAGE_TAGS} tags and ${PAGE_OWNERS} owners${label} (1 connection)`,
        target,
        `${PAGE_DATASETS} datasets in turn, answer ${size(answer)} KB`,
      );
    const getDataset = await rowOf('getDataset', '', DATASET_PAGE_P50_TARGET_MS, page);
    // No target of its own in issue 31; held to the page's.
    const getDatasetSchema = await rowOf('getDatasetSchema', ': its schema tab', DATASET_PAGE_P50_TARGET_MS, schema);
    const urns = Array.from({ length: PAGE_DATASETS }, (_, k) => ({ urn: dataset(k) }));
    const ratios = [
      await uiRatioRow(context, uiOperation('getDataset'), urns, "the UI's getDataset, vs graphql-js replaying mds's answers"),
      await uiRatioRow(context, uiOperation('getDatasetSchema'), urns, "the UI's getDatasetSchema, vs graphql-js replaying mds's answers"),
    ];
    return {
      rows: [getDataset.row, getDatasetSchema.row, ...ratios.map((r) => r.row)],
      details: {
        getDataset: getDataset.alone,
        getDatasetSchema: getDatasetSchema.alone,
        ratios: ratios.map((r) => r.result),
      },
    };
  },
};
