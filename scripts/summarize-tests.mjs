// Totals every package's vitest JSON report into the one closing line CI reads: "N passed, N failed, N skipped".
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The workspace's packages (pnpm-workspace.yaml): every folder of packages/ and apps/, and bench itself. */
export function packageDirs() {
  return [
    ...['packages', 'apps'].flatMap((group) => (existsSync(group) ? readdirSync(group).map((name) => join(group, name)) : [])),
    'bench',
  ];
}

/** Prints the totals; ok when something passed and nothing failed. */
export function summarize() {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const dir of packageDirs()) {
    const report = join(dir, 'test-output/vitest.json');
    if (!existsSync(report)) continue;
    const r = JSON.parse(readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    // A file that failed without a failing test (import or collection error, a throwing afterAll) counts as one failure.
    const fileFailures = r.testResults.filter(
      (file) => file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'),
    );
    totals.failed += r.numFailedTests + fileFailures.length;
    totals.skipped += r.numPendingTests + r.numTodoTests;
  }
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return { ...totals, ok: totals.passed > 0 && totals.failed === 0 };
}
