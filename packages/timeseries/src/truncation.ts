import { formatFixed2 } from '@mds/core';
import type { TruncationCount, TruncationMode } from './port.ts';

/**
 * DataHub's choice (OperationsResource.executeTruncateTimeseriesAspect): reindex when forced, or when more than
 * half of the rows would go (`matching > total / 2` in integer arithmetic), unless delete-by-query is forced.
 */
export function chooseMode(count: TruncationCount, force: { forceDeleteByQuery?: boolean; forceReindex?: boolean }): TruncationMode {
  if (force.forceDeleteByQuery) return 'delete';
  return force.forceReindex || count.matching > Math.floor(count.total / 2) ? 'reindex' : 'delete';
}

/**
 * The answer text, byte for byte DataHub's (clients parse it: DataHub's gc job reads the first two integers and
 * looks for `out of` and `This was a dry run`). An empty index gives 0.00% where DataHub would print NaN.
 */
export function truncationSummary(count: TruncationCount, mode: TruncationMode, dryRun: boolean): string {
  const share = count.total === 0 ? 0 : (count.matching / count.total) * 100;
  let summary = `Delete ${count.matching} out of ${count.total} rows (${formatFixed2(share)}%). `;
  summary += mode === 'reindex' ? 'Reindexing the aspect without the deleted records. ' : 'Issuing a delete by query request. ';
  if (dryRun) summary += 'This was a dry run. Run with dryRun = false to execute.';
  return summary;
}
