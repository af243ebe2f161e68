import { describe, expect, it } from 'vitest';
import { chooseMode, formatFixed2, truncationSummary } from '../src/truncation.ts';

describe('truncation answer text', () => {
  it('formats percentages like Java %.2f (half-up on the shortest decimal form)', () => {
    expect(formatFixed2(60)).toBe('60.00');
    expect(formatFixed2(1.005)).toBe('1.01');
    expect(formatFixed2(0.125)).toBe('0.13');
    expect(formatFixed2((1 / 3) * 100)).toBe('33.33');
    expect(formatFixed2((2 / 3) * 100)).toBe('66.67');
    expect(formatFixed2(99.995)).toBe('100.00');
    expect(formatFixed2((1 / 1e12) * 100)).toBe('0.00');
    expect(formatFixed2(100)).toBe('100.00');
  });

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
