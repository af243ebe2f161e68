import type { Scenario } from '../context.ts';
import { cpuSecondsOf } from '../proc-status.ts';
import { benchDatasetUrn, entityProposal } from '../entity-proposals.ts';
import { inPool, postJson } from '../http.ts';
import { median, runRounds, summarize, type LoadRequest } from '../load.ts';
import { DATASET_SEARCH, graphqlBody } from '../queries.ts';

const BATCH_ASPECTS_PER_SECOND_TARGET = 10_000;
/** On PostgreSQL (issue 20): one replica, its database's CPU on the same machine. */
const BATCH_ASPECTS_PER_SECOND_TARGET_POSTGRES = 5_000;
const SINGLE_ASPECTS_PER_SECOND_TARGET = 2_000;
const GET_ASPECT_P50_TARGET_MS = 2;
const PROPOSALS_PER_BATCH = 1_000;
const SEARCH_P50_TARGET_MS = 20;
const SEARCH_PAGE_P50_TARGET_MS = 30;
/** Searched in turn: one description word (about 5 % of the datasets), two words, and a name prefix. */
const SEARCH_WORDS = ['invoices', 'refunds payments', 'churn', 'ledger audits', 'table_4242'];

const mdsCpuSeconds = (pid: number | undefined) => (pid === undefined ? undefined : cpuSecondsOf(pid));

/** ingestProposalBatch of versioned aspects: new datasets, four aspects each, from several clients at once. */
export const entityIngestBatch: Scenario = {
  name: 'entityIngestBatch',
  title: 'ingestProposalBatch (versioned aspects)',
  async run(context) {
    const { config, runId } = context;
    const total = config.entityAspects;
    const batches = Math.ceil(total / PROPOSALS_PER_BATCH);
    const batchMs: number[] = [];
    const cpuBefore = { mds: mdsCpuSeconds(context.target.pid), database: context.target.databaseCpu?.() };
    const started = performance.now();
    await inPool(batches, config.ingestClients, async (b) => {
      const proposals = Array.from({ length: Math.min(PROPOSALS_PER_BATCH, total - b * PROPOSALS_PER_BATCH) }, (_, j) =>
        entityProposal(runId, b * PROPOSALS_PER_BATCH + j),
      );
      const sent = performance.now();
      await postJson(context.target, '/aspects?action=ingestProposalBatch', JSON.stringify({ proposals, async: 'false' }));
      batchMs.push(performance.now() - sent);
    });
    const seconds = (performance.now() - started) / 1000;
    const perSecond = Math.round(total / seconds);
    const microsPerAspect = (before: number | undefined, after: number | undefined) =>
      before === undefined || after === undefined ? undefined : Math.round(((after - before) * 1e6) / total);
    const cpu = {
      mds: microsPerAspect(cpuBefore.mds, mdsCpuSeconds(context.target.pid)),
      database: microsPerAspect(cpuBefore.database, context.target.databaseCpu?.()),
    };
    const target = context.target.databaseCpu ? BATCH_ASPECTS_PER_SECOND_TARGET_POSTGRES : BATCH_ASPECTS_PER_SECOND_TARGET;
    return {
      rows: [
        {
          label: `ingestProposalBatch, versioned aspects (${PROPOSALS_PER_BATCH} per batch, ${config.ingestClients} clients)`,
          value: perSecond,
          unit: 'aspects/s',
          note:
            `${total.toLocaleString('en-US')} aspects of ${(total / 4).toLocaleString('en-US')} datasets in ${seconds.toFixed(1)} s, batch p50 ${Math.round(median(batchMs))} ms; ` +
            `CPU per aspect: mds ${cpu.mds} µs` +
            (cpu.database === undefined ? '' : `, PostgreSQL ${cpu.database} µs`),
          target: { text: `≥ ${target.toLocaleString('en-US')} aspects/s`, met: perSecond >= target },
        },
      ],
      details: { aspects: total, seconds, batchMsP50: median(batchMs), mdsCpuUsPerAspect: cpu.mds, databaseCpuUsPerAspect: cpu.database },
    };
  },
};

/** One ingestProposal per request, each a new aspect, from every connection at once. */
export const entityIngestProposal: Scenario = {
  name: 'entityIngestProposal',
  title: 'ingestProposal (one versioned aspect per request)',
  async run(context) {
    const { config, runId } = context;
    let n = 0;
    const single: LoadRequest = {
      method: 'POST',
      path: '/aspects?action=ingestProposal',
      // Fresh datasets, far from the batch scenario's, so every request writes.
      body: () => JSON.stringify({ proposal: entityProposal(`${runId}_single`, n++), async: 'false' }),
    };
    const rounds = (await runRounds({ mds: context.target }, [single], config)).map((r) => r.mds);
    const summary = summarize(rounds);
    return {
      rows: [
        {
          label: `ingestProposal, versioned aspect (${config.connections} connections)`,
          value: Math.round(summary.rps),
          unit: 'aspects/s',
          note: `p50 ${summary.p50Ms} ms, p99 ${summary.p99Ms} ms, ${n.toLocaleString('en-US')} aspects written`,
          target: {
            text: `≥ ${SINGLE_ASPECTS_PER_SECOND_TARGET.toLocaleString('en-US')} aspects/s`,
            met: summary.rps >= SINGLE_ASPECTS_PER_SECOND_TARGET,
          },
        },
      ],
      details: { summary, rounds },
    };
  },
};

/** GET /aspects/{urn}?aspect=&version=0 over the datasets the batch scenario wrote (or a few written here). */
export const getAspect: Scenario = {
  name: 'getAspect',
  title: 'GET /aspects/{urn}',
  async run(context) {
    const { config, runId } = context;
    const datasets = Math.min(1_000, Math.floor(config.entityAspects / 4));
    // Written again: unchanged when the batch scenario ran first, so the fixture costs little either way.
    await postJson(
      context.target,
      '/aspects?action=ingestProposalBatch',
      JSON.stringify({ proposals: Array.from({ length: datasets * 4 }, (_, i) => entityProposal(runId, i)) }),
    );
    const paths = Array.from(
      { length: datasets },
      (_, k) => `/aspects/${encodeURIComponent(benchDatasetUrn(runId, k))}?aspect=datasetProperties&version=0`,
    );
    let n = 0;
    const requests: LoadRequest[] = [{ method: 'GET', path: paths[0]!, pathOf: () => paths[n++ % paths.length]! }];
    // One client: the latency of a read itself. Then every connection: what the server sustains, queueing included.
    const alone = summarize((await runRounds({ mds: context.target }, requests, { ...config, connections: 1 })).map((r) => r.mds));
    const rounds = (await runRounds({ mds: context.target }, requests, config)).map((r) => r.mds);
    const loaded = summarize(rounds);
    return {
      rows: [
        {
          label: 'GET /aspects/{urn}?aspect=datasetProperties (1 connection)',
          value: alone.p50Ms,
          unit: 'ms p50',
          note: `p99 ${alone.p99Ms} ms, ${Math.round(alone.rps)} req/s over ${datasets} datasets`,
          target: { text: `p50 < ${GET_ASPECT_P50_TARGET_MS} ms`, met: alone.p50Ms < GET_ASPECT_P50_TARGET_MS },
        },
        {
          label: `GET /aspects/{urn}?aspect=datasetProperties (${config.connections} connections)`,
          value: Math.round(loaded.rps),
          unit: 'req/s',
          note: `p50 ${loaded.p50Ms} ms, p99 ${loaded.p99Ms} ms`,
        },
      ],
      details: { alone, summary: loaded, rounds },
    };
  },
};

/** Rest.li searchAcrossEntities with facets over every dataset the batch scenario wrote (run it first). */
export const entitySearch: Scenario = {
  name: 'entitySearch',
  title: 'searchAcrossEntities over the aspect store',
  async run(context) {
    const { config } = context;
    const total = await postJson<{ value: { numEntities: number } }>(
      context.target,
      '/entities?action=searchAcrossEntities',
      JSON.stringify({ entities: ['dataset'], input: '*', start: 0, count: 0, searchFlags: { skipAggregates: true } }),
    );
    let n = 0;
    const bodies = SEARCH_WORDS.map((input) => JSON.stringify({ entities: ['dataset'], input, start: 0, count: 10 }));
    const requests: LoadRequest[] = [
      { method: 'POST', path: '/entities?action=searchAcrossEntities', body: () => bodies[n++ % bodies.length]! },
    ];
    const alone = summarize((await runRounds({ mds: context.target }, requests, { ...config, connections: 1 })).map((r) => r.mds));
    const loaded = summarize((await runRounds({ mds: context.target }, requests, config)).map((r) => r.mds));
    const entities = total.value.numEntities.toLocaleString('en-US');
    return {
      rows: [
        {
          label: `searchAcrossEntities with facets, ${entities} entities (1 connection)`,
          value: alone.p50Ms,
          unit: 'ms p50',
          note: `p99 ${alone.p99Ms} ms, words: ${SEARCH_WORDS.join(' / ')}`,
          target: { text: `p50 < ${SEARCH_P50_TARGET_MS} ms`, met: alone.p50Ms < SEARCH_P50_TARGET_MS },
        },
        {
          label: `searchAcrossEntities with facets, ${entities} entities (${config.connections} connections)`,
          value: Math.round(loaded.rps),
          unit: 'req/s',
          note: `p50 ${loaded.p50Ms} ms, p99 ${loaded.p99Ms} ms`,
        },
      ],
      details: { entities: total.value.numEntities, alone, loaded },
    };
  },
};

/** A 50-result GraphQL search page over the datasets entityIngestBatch wrote, with facets, as DataHub's UI asks it. */
export const entitySearchPage: Scenario = {
  name: 'entitySearchPage',
  title: 'GraphQL searchAcrossEntities, 50 datasets with facets',
  async run(context) {
    const { config } = context;
    let n = 0;
    const bodies = SEARCH_WORDS.map((query) => graphqlBody(DATASET_SEARCH, { input: { types: ['DATASET'], query, start: 0, count: 50 } }));
    const requests: LoadRequest[] = [{ method: 'POST', path: '/api/graphql', body: () => bodies[n++ % bodies.length]! }];
    const alone = summarize((await runRounds({ mds: context.target }, requests, { ...config, connections: 1 })).map((r) => r.mds));
    return {
      rows: [
        {
          label: 'searchAcrossEntities (GraphQL), a 50-dataset page with tags, owners and facets (1 connection)',
          value: alone.p50Ms,
          unit: 'ms p50',
          note: `p99 ${alone.p99Ms} ms, words: ${SEARCH_WORDS.join(' / ')}`,
          target: { text: `p50 < ${SEARCH_PAGE_P50_TARGET_MS} ms`, met: alone.p50Ms < SEARCH_PAGE_P50_TARGET_MS },
        },
      ],
      details: { alone },
    };
  },
};
