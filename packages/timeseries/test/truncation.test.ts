import { describe, expect, it } from 'vitest';
import { chooseMode, truncationSummary } from '../src/truncation.ts';

describe('truncation answer text', () => {
  it('chooses reindex for more than half (integer arithmetic) or when forced; delete-by-query when forced', () => {
    expect(chooseMode({ matching: 3, total: 5 }, {})).toBe('reindex');
    expect(chooseMode({ matching: 2, total: 5 }, {})).toBe('delete');
    expect(chooseMode({ matching: 500, total: 1000 }, {})).toBe('delete');
    expect(chooseMode({ matching: 501, total: 1000 }, {})).toBe('reindex');
    expect(chooseMode({ matching: 1, total: 1 }, {})).toBe('reindex');
    expect(chooseMode({ matching: 0, total: 0 }, {})).toBe('delete');
    expect(chooseMode({ matching: 1, total: 1000 }, { forceReindex: true })).toBe('reindex');
    expect(chooseMode({ matching: 999, total: 1000 }, { forceDeleteByQuery: true })).toBe('delete');
  });

  it('reads back the way DataHub gc does: the first two integers, "out of", "This was a dry run"', () => {
    const text = truncationSummary({ matching: 12345, total: 67890 }, 'delete', true);
    expect(text).toBe(
      'Delete 12345 out of 67890 rows (18.18%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
    );
    const [toDelete, total] = text.match(/\d+/g)!.map(Number);
    expect([toDelete, total]).toEqual([12345, 67890]);
    expect(truncationSummary({ matching: 1, total: 2 }, 'delete', false)).toBe(
      'Delete 1 out of 2 rows (50.00%). Issuing a delete by query request. ',
    );
  });
});
