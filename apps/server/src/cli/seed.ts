import { InvalidArgumentError, type Command } from 'commander';
import { withLocalDomains } from './local';
import { command } from './run';

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
};

export function registerSeedCommand(program: Command): void {
  program
    .command('seed')
    .description('fill the local time-series store with realistic documents for every registry aspect')
    .option('--days <n>', 'days of history, ending today', positiveInt, 30)
    .option('--docs-per-day <n>', 'documents per aspect per day', positiveInt, 200)
    .action(
      command(async (options: { days: number; docsPerDay: number }) => {
        const started = performance.now();
        const result = await withLocalDomains((d) => d.timeseries.service.seed({ days: options.days, docsPerDay: options.docsPerDay }));
        const seconds = (performance.now() - started) / 1000;
        process.stdout.write(`Wrote ${result.documents} documents into ${result.indices} indices in ${seconds.toFixed(1)} s.\n`);
      }),
    );
}
