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

/** Prints each failure (package, file, test, the first lines of its message), then the totals; ok when something passed
 * and nothing failed. The failures come last so that a log cut to its tail still names them. */
export function summarize() {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  const failures = [];
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
    for (const file of r.testResults) {
      const where = `${dir}/${file.name.split(`/${dir}/`).pop()}`;
      for (const a of file.assertionResults.filter((x) => x.status === 'failed')) {
        failures.push(`FAILED ${where} > ${a.fullName}\n${excerpt(a.failureMessages.join('\n'))}`);
      }
      if (fileFailures.includes(file)) failures.push(`FAILED ${where} (the file itself)\n${excerpt(file.message ?? '')}`);
    }
    totals.skipped += r.numPendingTests + r.numTodoTests;
  }
  for (const failure of failures) console.log(failure);
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return { ...totals, ok: totals.passed > 0 && totals.failed === 0 };
}

/**
 * A failure message cut to its first and last lines, indented, so that a stack of hundreds of lines does not bury the
 * totals and a message that ends with its cause (a child process's output, then "expected 1 to be 0") keeps it. Of the
 * stack, only its first frame (the test's line) is kept.
 */
export function excerpt(message, head = 8, tail = 16) {
  const frame = /^\s+at /;
  const lines = message.split('\n').filter((line, i, all) => !frame.test(line) || !frame.test(all[i - 1] ?? ''));
  const kept =
    lines.length <= head + tail + 1
      ? lines
      : [...lines.slice(0, head), `    … ${lines.length - head - tail} lines …`, ...lines.slice(-tail)];
  return kept.map((line) => `    ${line}`).join('\n');
}
