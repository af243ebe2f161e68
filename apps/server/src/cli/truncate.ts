import type { TruncateTimeseriesAspectParams } from '@mds/client';
import { Presets, SingleBar } from 'cli-progress';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { addTargetOptions, withOperations, type Operations, type TargetOptions } from './remote';
import { CliError, command } from './run';

const POLL_MS = 500;
const AGE_UNITS_MS = { d: 86_400_000, h: 3_600_000, m: 60_000 } as const;

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
};

/** `30d`, `12h`, `90m` → milliseconds. */
export function parseAge(value: string): number {
  const match = /^(\d+)([dhm])$/.exec(value.trim());
  if (!match) throw new InvalidArgumentError('must be <N>d, <N>h or <N>m, e.g. 30d');
  return Number(match[1]) * AGE_UNITS_MS[match[2] as keyof typeof AGE_UNITS_MS];
}

/** Epoch milliseconds or an ISO 8601 date/time → epoch milliseconds. */
export function parseEndTime(value: string): number {
  const millis = /^\d+$/.test(value) ? Number(value) : /^\d{4}-\d\d-\d\d/.test(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isSafeInteger(millis)) throw new InvalidArgumentError('must be epoch milliseconds or an ISO date, e.g. 2024-01-31T00:00:00Z');
  return millis;
}

interface TruncateOptions extends TargetOptions {
  entity: string;
  aspect: string;
  olderThan?: number;
  endTime?: number;
  execute?: boolean;
  batchSize?: number;
  timeoutSeconds?: number;
  forceDeleteByQuery?: boolean;
  forceReindex?: boolean;
}

const WHERE_IT_RUNS = `
Where it runs:
  --url <url>   the server runs the truncation; Ctrl-C stops watching, not the task
                (check it later with \`mds task-status <task> --url <url>\`).
  (no --url)    the embedded store in DATA_DIR, with the server's own operations actions, as the root user.
                The truncation runs in THIS process's worker threads: mds stays until the task completes,
                and Ctrl-C stops the truncation after its current batch (rows deleted so far stay deleted).

Examples:
  mds truncate --entity dataset --aspect datasetProfile --older-than 30d
  mds truncate --entity dataset --aspect datasetProfile --older-than 30d --execute --url http://localhost:8080
`;

export function registerTruncateCommands(program: Command): void {
  addTargetOptions(
    program
      .command('truncate')
      .description('delete time-series rows up to a time (truncateTimeseriesAspect): a dry run unless --execute')
      .requiredOption('--entity <type>', 'entity type, e.g. dataset')
      .requiredOption('--aspect <name>', 'time-series aspect, e.g. datasetProfile')
      .addOption(new Option('--older-than <age>', 'rows older than this: <N>d, <N>h or <N>m').argParser(parseAge).conflicts('endTime'))
      .addOption(new Option('--end-time <time>', 'rows with timestampMillis <= this: epoch ms or ISO date').argParser(parseEndTime))
      .option('--execute', 'really delete, and follow the task to completion with a progress bar')
      .option('--batch-size <n>', 'rows per batch (server default 5000)', positiveInt)
      .option('--timeout-seconds <n>', 'how long one batch may wait (server default 60)', positiveInt)
      .addOption(new Option('--force-delete-by-query', 'delete in batches even when most rows go').conflicts('forceReindex'))
      .option('--force-reindex', 'copy the surviving rows to a fresh index and swap it in, even when few rows go'),
  )
    .addHelpText('after', WHERE_IT_RUNS)
    .action(
      command(async (options: TruncateOptions, cmd: Command) => {
        if (options.olderThan === undefined && options.endTime === undefined) {
          cmd.error('mds: say up to when: --older-than <age> or --end-time <time>', { exitCode: 2 });
        }
        const params: TruncateTimeseriesAspectParams = {
          entityType: options.entity,
          aspect: options.aspect,
          endTimeMillis: options.endTime ?? Date.now() - options.olderThan!,
          dryRun: !options.execute,
          ...(options.batchSize !== undefined && { batchSize: options.batchSize }),
          ...(options.timeoutSeconds !== undefined && { timeoutSeconds: options.timeoutSeconds }),
          ...(options.forceDeleteByQuery && { forceDeleteByQuery: true }),
          ...(options.forceReindex && { forceReindex: true }),
        };
        await withOperations(options, cmd, async (ops) => {
          const answer = await ops.truncateTimeseriesAspect(params);
          if (!options.execute) {
            process.stdout.write(`${answer}\n`);
            process.stderr.write(
              `(rows with timestampMillis <= ${new Date(params.endTimeMillis).toISOString()}; add --execute to delete them)\n`,
            );
            return;
          }
          const announce = `Started truncation task ${answer} ${ops.local ? 'in this process' : `on ${ops.where}`}.`;
          await watch(ops, answer, { announce, runsHere: ops.local });
        });
      }),
    );

  addTargetOptions(
    program
      .command('task-status')
      .description('the status of a truncation task (getEsTaskStatus), as JSON, or followed with --watch')
      .argument('<task>', 'task id <node>:<n>, as printed by `truncate --execute`')
      .option('--watch', 'follow it with a progress bar until it completes'),
  ).action(
    command(async (task: string, options: TargetOptions & { watch?: boolean }, cmd: Command) => {
      await withOperations(options, cmd, async (ops) => {
        if (options.watch) return watch(ops, task, { runsHere: false });
        const status = await ops.getEsTaskStatus(task);
        process.stdout.write(`${JSON.stringify(status, null, 2)}\n`);
        if (status.completed === undefined || status.error) process.exitCode = 1;
      });
    }),
  );
}

/**
 * Polls the task until it completes, with a progress bar on stderr; Ctrl-C stops watching (exit 130).
 * `runsHere`: the task runs in this process's workers (a local --execute), so leaving stops it.
 */
async function watch(ops: Operations, task: string, { announce, runsHere }: { announce?: string; runsHere: boolean }): Promise<void> {
  const bar = new SingleBar(
    {
      format: ' {bar} {percentage}% | {value}/{total} rows deleted{copied} | {rate} rows/s | ETA {eta_formatted}',
      stream: process.stderr,
      hideCursor: true,
      // Not a terminal (CI, a pipe): one line per second instead of nothing.
      noTTYOutput: true,
      notTTYSchedule: 1000,
    },
    Presets.shades_classic,
  );
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  // Announced only once Ctrl-C is ours: whoever reacts to this line by interrupting gets the message below.
  if (announce) process.stderr.write(`${announce}\n`);
  try {
    let shown = false;
    for (;;) {
      const status = await ops.getEsTaskStatus(task);
      if (status.completed === undefined) throw new CliError(status.error);
      const { total, deleted, created = 0 } = status.status;
      const payload = {
        rate: Math.round(deleted / Math.max(0.001, status.runTimeNanos / 1e9)),
        copied: created ? `, ${created} copied` : '',
      };
      // The total is known once the task has counted its rows: a bar before that would read 0/0 = 100%.
      if (!shown && (total > 0 || status.completed)) {
        bar.start(total, deleted, payload);
        shown = true;
      } else if (shown) {
        bar.setTotal(total);
        bar.update(deleted, payload);
      }
      if (status.completed) {
        bar.stop();
        if (status.error) throw new CliError(`task ${task} ended with an error: ${status.error}`);
        process.stdout.write(
          `Task ${task} completed: deleted ${deleted} of ${total} rows in ${(status.runTimeNanos / 1e9).toFixed(1)} s.\n`,
        );
        return;
      }
      await sleep(POLL_MS, undefined, { signal: interrupt.signal }).catch(() => undefined);
      if (interrupt.signal.aborted) break;
    }
  } finally {
    process.off('SIGINT', onSigint);
    bar.stop();
  }
  process.stderr.write(
    runsHere
      ? `Interrupted: the truncation ran in this process and stops after its current batch (rows deleted so far stay deleted). Run the same command again to finish.\n`
      : `Stopped watching. Task ${task} keeps running ${ops.local ? 'in the process that started it' : `on ${ops.where}`}; ` +
          `check it with: mds task-status ${task}${ops.local ? '' : ` --url ${ops.where}`} [--watch]\n`,
  );
  process.exitCode = 130;
}
