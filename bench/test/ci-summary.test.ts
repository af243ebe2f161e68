import { expect, test } from 'vitest';
// The closing summary `pnpm test` prints (scripts/summarize-tests.mjs): what CI shows of a failure.
import { excerpt } from '../../scripts/summarize-tests.mjs';

const cut = excerpt as (message: string) => string;

test("a long failure keeps its first lines and its last, where a child process's output ends with the cause", () => {
  const output = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`);
  const message = [
    `AssertionError: ${output.join('\n')}: expected 1 to be +0 // Object.is equality`,
    '    at /repo/bench/test/smoke.test.ts:32:27',
    ...Array.from({ length: 30 }, (_, i) => `    at frame${i} (node:internal/x:${i}:1)`),
  ].join('\n');
  const shown = cut(message).split('\n');
  expect(shown[0]).toBe('    AssertionError: line 1');
  expect(shown).toContain('    line 8');
  expect(shown).not.toContain('    line 30');
  expect(shown).toContain('    line 60: expected 1 to be +0 // Object.is equality');
  // The test's own line is kept, the frames below it are not.
  expect(shown.at(-1)).toBe('        at /repo/bench/test/smoke.test.ts:32:27');
  expect(shown.some((line) => line.includes('frame'))).toBe(false);
});

test('a short failure is shown whole', () => {
  expect(cut('AssertionError: expected 2 to be 3\n    at /repo/x.test.ts:1:1')).toBe(
    '    AssertionError: expected 2 to be 3\n        at /repo/x.test.ts:1:1',
  );
});
