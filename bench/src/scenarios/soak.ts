import type { Scenario } from '../context.ts';
import { startLoad, type LoadRequest } from '../load.ts';
import { memoryOf } from '../proc-status.ts';
import * as requests from '../requests.ts';

const RSS_GROWTH_TARGET_PCT = 20;
/** Proposals per ingestion request in the mix: a busy ingestion client, small enough to interleave. */
const SOAK_BATCH = 100;
/** The chartUsageStatistics index: not the one truncations work on. */
const SOAK_ASPECT = 4;

interface RssSample {
  second: number;
  rssMb: number;
}

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
    const mix: [string, LoadRequest][] = [
      ['tag', read],
      ['tag', read],
      ['searchAcrossEntities', requests.search()],
      ['createTag', requests.createTag(context.runId)],
      ['tag', read],
      [`ingestProposalBatch(${SOAK_BATCH})`, requests.ingestBatch(SOAK_ASPECT, SOAK_BATCH)],
      ['tag', read],
      ['getIndexSizes', requests.indexSizes()],
    ];

    const rss: RssSample[] = [];
    const started = performance.now();
    const sample = (): RssSample => ({ second: Math.round((performance.now() - started) / 100) / 10, rssMb: memoryOf(mds.pid).rssMb });
    const load = startLoad(
      target,
      mix.map(([, request]) => request),
      { connections: config.connections, durationS: config.soakS },
    );
    const sampler = setInterval(() => rss.push(sample()), 500);
    const stats = await load.done.finally(() => clearInterval(sampler));
    const end = sample();
    const warm = rss.find((s) => s.second >= config.soakWarmupS);
    if (!warm) throw new Error(`no RSS sample after the ${config.soakWarmupS} s warm-up: soakS must exceed soakWarmupS`);
    const growthPct = Math.round(((end.rssMb - warm.rssMb) / warm.rssMb) * 1000) / 10;
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
          note: `${warm.rssMb} MB at ${warm.second} s → ${end.rssMb} MB at the end (${end.second} s)`,
          target: { text: `< ${RSS_GROWTH_TARGET_PCT} %`, met: growthPct < RSS_GROWTH_TARGET_PCT },
        },
      ],
      details: {
        mix: mix.map(([name]) => name),
        stats,
        warmRssMb: warm.rssMb,
        warmSecond: warm.second,
        endRssMb: end.rssMb,
        growthPct,
        rss,
      },
    };
  },
};
