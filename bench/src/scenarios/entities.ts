import { validateAspect } from '@mds/core';
import type { Scenario } from '../context.ts';
import { cpuSecondsOf } from '../proc-status.ts';
import { benchDatasetUrn, entityProposal } from '../entity-proposals.ts';
import { inPool, postJson } from '../http.ts';
import { median, runRounds, summarize, type LoadRequest, type Target } from '../load.ts';
import { startBareStoreProcess } from '../bare-store/process.ts';
import type { Row } from '../report.ts';
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

/** Issue 34: batched ingestion with full validation is not slower than without it by more than 10 %. */
const VALIDATION_SHARE_TARGET_PCT = 10;
/** How many of the scenario's values the harness validates to time `validateAspect` (each pass over all of them). */
const VALIDATED_SAMPLE = 20_000;

/**
 * CPU µs per aspect of `validateAspect` (what a value of an ingested proposal passes: its shape, enums, unions, urns)
 * over the scenario's first values, in this process after a warm-up pass: the median of five passes.
 */
function validationMicrosPerAspect(runId: string, count: number): number {
  const values = Array.from({ length: count }, (_, i) => {
    const proposal = entityProposal(runId, i);
    return [proposal.aspectName, JSON.parse(proposal.aspect.value) as unknown] as const;
  });
  const pass = () => {
    const before = process.cpuUsage();
    for (const [aspect, value] of values) {
      if (validateAspect(aspect, value).length) throw new Error(`the bench's ${aspect} does not validate`);
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / count;
  };
  pass();
  return Math.round(median(Array.from({ length: 5 }, pass)) * 10) / 10;
}

/** What one side of the batched-ingest comparison spent: wall time, its process's CPU, each batch's latency. */
interface IngestSide {
  seconds: number;
  cpuSeconds: number | undefined;
  databaseCpuSeconds: number | undefined;
  batchMs: number[];
}

const newSide = (): IngestSide => ({ seconds: 0, cpuSeconds: 0, databaseCpuSeconds: 0, batchMs: [] });

/** Posts `bodies` to `target` from `clients` at once, adding the time and the CPU it took to `side`. */
async function ingestInto(target: Target, bodies: string[], clients: number, side: IngestSide) {
  const cpuBefore = mdsCpuSeconds(target.pid);
  const databaseBefore = target.databaseCpu?.();
  const started = performance.now();
  await inPool(bodies.length, clients, async (b) => {
    const sent = performance.now();
    await postJson(target, '/aspects?action=ingestProposalBatch', bodies[b]!);
    side.batchMs.push(performance.now() - sent);
  });
  side.seconds += (performance.now() - started) / 1000;
  side.cpuSeconds = added(side.cpuSeconds, cpuBefore, mdsCpuSeconds(target.pid));
  side.databaseCpuSeconds = added(side.databaseCpuSeconds, databaseBefore, target.databaseCpu?.());
}

/** `sum` plus what a counter moved from `before` to `after`; unknown once any of them is. */
const added = (sum: number | undefined, before: number | undefined, after: number | undefined) =>
  sum === undefined || before === undefined || after === undefined ? undefined : sum + after - before;

/**
 * ingestProposalBatch of versioned aspects: new datasets, four aspects each, from several clients at once. On SQLite
 * the same batches also go to the bare store (bare-store/: the same store and search index, no check at all), in
 * alternating rounds, so that what the checks cost reads as a ratio whatever the machine's speed (issue 34).
 */
export const entityIngestBatch: Scenario = {
  name: 'entityIngestBatch',
  title: 'ingestProposalBatch (versioned aspects)',
  async run(context) {
    const { config, runId } = context;
    const total = config.entityAspects;
    const batches = Math.ceil(total / PROPOSALS_PER_BATCH);
    const rounds = Math.max(1, Math.min(config.rounds, batches));
    const bodyOf = (b: number) =>
      JSON.stringify({
        proposals: Array.from({ length: Math.min(PROPOSALS_PER_BATCH, total - b * PROPOSALS_PER_BATCH) }, (_, j) =>
          entityProposal(runId, b * PROPOSALS_PER_BATCH + j),
        ),
        async: 'false',
      });
    const mds = newSide();
    const bare = context.target.databaseCpu ? undefined : newSide();
    const bareProcess = bare && (await startBareStoreProcess());
    try {
      const bareTarget = bareProcess && { url: bareProcess.url, token: 'bare', pid: bareProcess.pid };
      for (let r = 0; r < rounds; r++) {
        const first = Math.floor((r * batches) / rounds);
        const bodies = Array.from({ length: Math.floor(((r + 1) * batches) / rounds) - first }, (_, i) => bodyOf(first + i));
        await ingestInto(context.target, bodies, config.ingestClients, mds);
        if (bareTarget) await ingestInto(bareTarget, bodies, config.ingestClients, bare);
      }
    } finally {
      await bareProcess?.stop();
    }
    const perSecond = (side: IngestSide) => Math.round(total / side.seconds);
    const microsPerAspect = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.round((seconds * 1e6) / total));
    const cpu = { mds: microsPerAspect(mds.cpuSeconds), database: microsPerAspect(mds.databaseCpuSeconds) };
    const target = context.target.databaseCpu ? BATCH_ASPECTS_PER_SECOND_TARGET_POSTGRES : BATCH_ASPECTS_PER_SECOND_TARGET;
    const label = `ingestProposalBatch, versioned aspects (${PROPOSALS_PER_BATCH} per batch, ${config.ingestClients} clients)`;
    const rows: Row[] = [
      {
        label,
        value: perSecond(mds),
        unit: 'aspects/s',
        note:
          `${total.toLocaleString('en-US')} aspects of ${(total / 4).toLocaleString('en-US')} datasets in ${mds.seconds.toFixed(1)} s, batch p50 ${Math.round(median(mds.batchMs))} ms; ` +
          `CPU per aspect: mds ${cpu.mds} µs` +
          (cpu.database === undefined ? '' : `, PostgreSQL ${cpu.database} µs`),
        target: { text: `≥ ${target.toLocaleString('en-US')} aspects/s`, met: perSecond(mds) >= target },
      },
    ];
    // Issue 34: full validation may cost batched ingestion at most 10 % of its throughput. validateAspect's CPU, timed
    // here on the same values, as a share of mds's CPU per aspect in this run: ingesting without it would be that much
    // cheaper.
    const validation = validationMicrosPerAspect(runId, Math.min(total, VALIDATED_SAMPLE));
    if (cpu.mds !== undefined) {
      const share = Math.round((validation / cpu.mds) * 1000) / 10;
      rows.push({
        label: "full validation's share of batched ingestion's CPU",
        value: share,
        unit: '%',
        note: `validateAspect ${validation} µs per aspect (in the harness, on the same values) of mds's ${cpu.mds} µs per aspect`,
        target: { text: `≤ ${VALIDATION_SHARE_TARGET_PCT} %`, met: share <= VALIDATION_SHARE_TARGET_PCT },
      });
    }
    if (bare) {
      const ratio = Math.round((perSecond(mds) / perSecond(bare)) * 1000) / 1000;
      const bareCpu = microsPerAspect(bare.cpuSeconds);
      rows.push({
        label: `${label}, against the bare store (the store alone, no check: the same batches, ${rounds} alternating round${rounds === 1 ? '' : 's'})`,
        value: perSecond(mds),
        unit: 'aspects/s',
        note:
          `CPU per aspect: mds ${cpu.mds} µs vs bare store ${bareCpu} µs` +
          (cpu.mds && bareCpu ? ` (cost ratio ${Math.round((bareCpu / cpu.mds) * 1000) / 1000})` : '') +
          `; batch p50 ${Math.round(median(mds.batchMs))} vs ${Math.round(median(bare.batchMs))} ms. What mds does above its store ` +
          '(HTTP, authentication, proposals parsed and checked, validation, authorization) costs the difference',
        ceiling: perSecond(bare),
        ratio,
      });
    }
    return {
      rows,
      details: {
        aspects: total,
        seconds: mds.seconds,
        batchMsP50: median(mds.batchMs),
        mdsCpuUsPerAspect: cpu.mds,
        databaseCpuUsPerAspect: cpu.database,
        validationCpuUsPerAspect: validation,
        ...(bare && {
          bareStore: { seconds: bare.seconds, batchMsP50: median(bare.batchMs), cpuUsPerAspect: microsPerAspect(bare.cpuSeconds) },
        }),
      },
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
