import type { Scenario } from '../context.ts';
import { startLoad } from '../load.ts';
import { memoryOf } from '../proc-status.ts';
import * as requests from '../requests.ts';

const RSS_GROWTH_TARGET_PCT = 20;
/** Proposals per ingestion request in the mix: a busy ingestion client, small enough to interleave. */
const SOAK_BATCH = 100;
/** The chartUsageStatistics index: not the one truncations work on. */
const SOAK_ASPECT = 4;

/**
 * Issue 7: mixed load at full concurrency for a minute — reads (tag, search), writes (createTag), ingestion and
 * size reports. Every connection cycles through the mix. Any error counts; RSS is compared between the end of the
 * warm-up and the end of the run.
 */
export const soak: Scenario = {
  name: 'soak',
  title: 'soak: mixed load',
  async run(context) {
    const { config, target, mds } = context;
    const urns = await context.fixtures.readTags();
    await context.fixtures.searchTags();
    const read = requests.tagRead(urns);
    const mix = [read, read, requests.search(), requests.createTag(context.runId), read, requests.ingestBatch(SOAK_ASPECT, SOAK_BATCH), read, requests.indexSizes()];

    const rss: { second: number; rssMb: number }[] = [];
    const started = performance.now();
    const load = startLoad(target, mix, { connections: config.connections, durationS: config.soakS });
    let warmRssMb: number | undefined;
    const sampler = setInterval(() => {
      const second = Math.round((performance.now() - started) / 100) / 10;
      const { rssMb } = memoryOf(mds.pid);
      rss.push({ second, rssMb });
      if (warmRssMb === undefined && second >= config.soakWarmupS) warmRssMb = rssMb;
    }, 500);
    const stats = await load.done.finally(() => clearInterval(sampler));
    const endRssMb = memoryOf(mds.pid).rssMb;
    const baseline = warmRssMb ?? rss[0]?.rssMb ?? endRssMb;
    const growthPct = Math.round(((endRssMb - baseline) / baseline) * 1000) / 10;
    return {
      rows: [
        {
          label: `soak: ${config.soakS} s mixed load, ${config.connections} connections`,
          value: stats.errors.total,
          unit: 'errors',
          note: `${stats.requests.toLocaleString('en-US')} requests, ${stats.rps} req/s, p99 ${stats.latencyMs.p99} ms; ${stats.errors.timeouts} timeouts, ${stats.errors.non2xx} non-2xx`,
          target: { text: '0 errors', met: stats.errors.total === 0 },
        },
        {
          label: 'soak: RSS growth after warm-up',
          value: growthPct,
          unit: '%',
          note: `${baseline} MB at ${config.soakWarmupS} s → ${endRssMb} MB at the end`,
          target: { text: `< ${RSS_GROWTH_TARGET_PCT} %`, met: growthPct < RSS_GROWTH_TARGET_PCT },
        },
      ],
      details: { mix: ['tag', 'tag', 'searchAcrossEntities', 'createTag', 'tag', `ingestProposalBatch(${SOAK_BATCH})`, 'tag', 'getIndexSizes'], stats, warmRssMb: baseline, endRssMb, growthPct, rss },
    };
  },
};
