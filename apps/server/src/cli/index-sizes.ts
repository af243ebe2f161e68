import type { IndexSize } from '@mds/client';
import Table from 'cli-table3';
import type { Command } from 'commander';
import { addTargetOptions, withOperations, type TargetOptions } from './remote';
import { command } from './run';

export function registerIndexSizesCommand(program: Command): void {
  addTargetOptions(
    program
      .command('index-sizes')
      .description('time-series index sizes, largest first (getIndexSizes), from DATA_DIR or from the server at --url')
      .option('--json', "print the API's indexSizes array"),
  ).action(
    command(async (options: TargetOptions & { json?: boolean }, cmd: Command) => {
      const sizes = await withOperations(options, cmd, (ops) => ops.getIndexSizes());
      process.stdout.write(options.json ? `${JSON.stringify(sizes, null, 2)}\n` : indexSizesTable(sizes));
    }),
  );
}

/** A table sorted by size with a total row; sizes in decimal units, like the API's MB. */
export function indexSizesTable(sizes: readonly IndexSize[]): string {
  if (sizes.length === 0) return 'No time-series indices yet.\n';
  const table = new Table({
    head: ['Index', 'Entity', 'Aspect', 'Size'],
    colAligns: ['left', 'left', 'left', 'right'],
    // No rule between rows (one index per line), no colours (the output is often piped).
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
    style: { head: [], border: [] },
  });
  const sorted = [...sizes].sort((a, b) => b.sizeInMb - a.sizeInMb || a.indexName.localeCompare(b.indexName));
  for (const size of sorted) table.push([size.indexName, size.entityName, size.aspectName, formatMegabytes(size.sizeInMb)]);
  const total = sizes.reduce((sum, size) => sum + size.sizeInMb, 0);
  table.push([`Total (${sizes.length} ${sizes.length === 1 ? 'index' : 'indices'})`, '', '', formatMegabytes(total)]);
  return `${table.toString()}\n`;
}

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** Decimal units (1 kB = 1000 B), three significant digits: `512 B`, `208.9 kB`, `1.23 GB`. */
export function formatMegabytes(mb: number): string {
  let value = Math.round(mb * 1_000_000);
  let unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  if (unit === 0) return `${value} B`;
  const digits = value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}
