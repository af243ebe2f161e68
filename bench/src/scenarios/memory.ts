import type { Scenario } from '../context.ts';
import { memoryOf } from '../proc-status.ts';

const PEAK_RSS_TARGET_MB = 200;

/** The server's high-water mark of resident memory (VmHWM) after the load scenarios that ran before it. */
export const peakRss: Scenario = {
  name: 'peakRss',
  title: 'peak RSS after the load',
  async run(context) {
    const { rssMb, peakRssMb } = memoryOf(context.mds.pid);
    return {
      rows: [
        {
          label: 'peak RSS of the server after the load (VmHWM)',
          value: peakRssMb,
          unit: 'MB',
          note: `${rssMb} MB resident now`,
          target: { text: `< ${PEAK_RSS_TARGET_MB} MB`, met: peakRssMb < PEAK_RSS_TARGET_MB },
        },
      ],
      details: { peakRssMb, rssMb, pid: context.mds.pid },
    };
  },
};
