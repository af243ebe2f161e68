import { sleep, type BenchContext, type Scenario } from '../context.ts';
import { ingest } from '../fixtures.ts';
import { restli } from '../http.ts';
import { startLoad } from '../load.ts';
import { ASPECTS, T0, indexNameOf } from '../proposals.ts';
import type { Row } from '../report.ts';
import * as requests from '../requests.ts';

const ROWS_PER_SECOND_TARGET = 200_000;
const READER_P99_TARGET_MS = 20;
/** The steady tag reader uses few connections: it stands for interactive users, not a load test. */
const READER_CONNECTIONS = 4;
const POLL_MS = 25;

interface TaskStatus {
  completed: boolean;
  taskId: string;
  status: { total?: number; deleted?: number; batches?: number };
  runTimeNanos: number;
  error?: string;
}

type Mode = 'deleteByQuery' | 'reindex';

/** The steady tag reader: `readerRate` tag(urn) requests/s over the read tags, for `durationS` or until stopped. */
async function startReader(context: BenchContext, durationS: number) {
  const read = requests.tagRead(await context.fixtures.readTags());
  return startLoad(context.target, [read], { connections: READER_CONNECTIONS, overallRate: context.config.readerRate, durationS });
}

/**
 * Truncates the first `truncateRows` rows of the fixture's big index while a second client reads tags at a steady
 * rate; rows/s = rows deleted / wall time from the request to the first poll that sees the task completed.
 */
async function truncateWhileReading(context: BenchContext, mode: Mode) {
  const reader = await startReader(context, 600); // stopped once the truncation completes
  try {
    await sleep(200); // connections open and the reader at its rate before the truncation starts
    const outcome = await truncate(context, mode);
    reader.stop();
    return { ...outcome, reader: await reader.done };
  } finally {
    reader.stop();
  }
}

async function truncate(context: BenchContext, mode: Mode) {
  const { config, target } = context;
  const aspect = ASPECTS[0]!;
  const started = performance.now();
  const taskId = await restli<string>(target, 'operations', 'truncateTimeseriesAspect', {
    entityType: aspect.entityType,
    aspect: aspect.aspectName,
    endTimeMillis: T0 + config.truncateRows - 1,
    dryRun: false,
    ...(mode === 'deleteByQuery' ? { forceDeleteByQuery: true } : { forceReindex: true }),
  });
  let status: TaskStatus;
  do {
    await sleep(POLL_MS);
    status = JSON.parse(await restli<string>(target, 'operations', 'getEsTaskStatus', { task: taskId })) as TaskStatus;
    if (!('completed' in status)) throw new Error(`getEsTaskStatus: ${JSON.stringify(status)}`);
  } while (!status.completed);
  const seconds = (performance.now() - started) / 1000;
  if (status.error) throw new Error(`truncation task ${taskId} failed: ${status.error}`);
  const deleted = status.status.deleted ?? 0;
  return { mode, taskId, deleted, seconds: Math.round(seconds * 1000) / 1000, rowsPerSecond: Math.round(deleted / seconds), status };
}

function rows(result: Awaited<ReturnType<typeof truncateWhileReading>>): Row[] {
  const { reader } = result;
  const label = result.mode === 'deleteByQuery' ? 'delete by query' : 'reindex';
  return [
    {
      label: `truncateTimeseriesAspect, ${label}`,
      value: result.rowsPerSecond,
      unit: 'rows/s',
      note: `${result.deleted.toLocaleString('en-US')} rows in ${result.seconds} s`,
      target: { text: `≥ ${ROWS_PER_SECOND_TARGET.toLocaleString('en-US')} rows/s`, met: result.rowsPerSecond >= ROWS_PER_SECOND_TARGET },
    },
    {
      label: `tag(urn) reads during the ${label} (${reader.rps} req/s steady)`,
      value: reader.latencyMs.p99,
      unit: 'ms p99',
      note: `p50 ${reader.latencyMs.p50} ms, max ${reader.latencyMs.max} ms, ${reader.errors.total} errors`,
      target: {
        text: `p99 < ${READER_P99_TARGET_MS} ms, no errors`,
        met: reader.latencyMs.p99 < READER_P99_TARGET_MS && reader.errors.total === 0,
      },
    },
  ];
}

export const truncation: Scenario = {
  name: 'truncation',
  title: 'truncateTimeseriesAspect',
  async run(context) {
    const { config, target } = context;
    await context.fixtures.timeseries();
    // The reader's latency with nothing else running, to compare with.
    const idleReader = await (await startReader(context, Math.max(1, config.roundS / 2))).done;
    const deleteRun = await truncateWhileReading(context, 'deleteByQuery');
    // Put the deleted rows back, then take them out again by reindexing.
    const refill = await ingest(target, [{ aspectNo: 0, from: 0, to: config.truncateRows }], config.ingestBatch, config.ingestClients);
    const reindexRun = await truncateWhileReading(context, 'reindex');
    return {
      rows: [...rows(deleteRun), ...rows(reindexRun)],
      details: {
        index: indexNameOf(ASPECTS[0]!),
        readerRate: config.readerRate,
        readerConnections: READER_CONNECTIONS,
        idleReader,
        deleteByQuery: deleteRun,
        refill,
        reindex: reindexRun,
      },
    };
  },
};
