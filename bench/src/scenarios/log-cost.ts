import type { Scenario } from '../context.ts';
import { Fixtures } from '../fixtures.ts';
import { runRounds, summarize } from '../load.ts';
import { startMdsProcess } from '../mds-process.ts';
import * as requests from '../requests.ts';

const MAX_LOG_COST = 0.05;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * What the per-request log line costs: the same tag(urn) load on the main server (default level `info`, a line per
 * request into its log file) and on a second one started with LOG_LEVEL=warn, in alternating rounds. Both hold the
 * same fixture tags (their ids derive from the run id), so one request list serves both.
 */
export const logCost: Scenario = {
  name: 'logCost',
  title: 'request log cost',
  async run(context) {
    const { config } = context;
    const quiet = await startMdsProcess({ logLevel: 'warn' });
    try {
      const warnTarget = { url: quiet.url, token: quiet.token, pid: quiet.pid };
      const [urns] = await Promise.all([context.fixtures.readTags(), new Fixtures(warnTarget, config, context.runId).readTags()]);
      const rounds = await runRounds({ info: context.target, warn: warnTarget }, [requests.tagRead(urns)], config);
      const info = summarize(rounds.map((r) => r.info));
      const warn = summarize(rounds.map((r) => r.warn));
      const cost = round3(1 - info.rps / warn.rps);
      const cpuCost = round3(info.cpuUsPerRequest / warn.cpuUsPerRequest - 1);
      return {
        rows: [
          {
            label: 'tag(urn) throughput lost to the request log (info vs warn)',
            value: Math.round(cost * 1000) / 10,
            unit: '%',
            note: `${info.rps} vs ${warn.rps} req/s; server CPU ${info.cpuUsPerRequest} vs ${warn.cpuUsPerRequest} µs/request (${Math.round(cpuCost * 1000) / 10} %)`,
            target: { text: `≤ ${MAX_LOG_COST * 100} %`, met: cost <= MAX_LOG_COST },
          },
        ],
        details: { info, warn, cost, cpuCost, rounds },
      };
    } finally {
      await quiet.stop();
    }
  },
};
