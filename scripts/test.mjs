// The README's test command (`pnpm test`): provisions the machine (scripts/test-env.mjs), then typechecks, lints, checks formatting and
// tests every package through turbo, and closes with one line totalling every package's vitest report.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProvisioned } from './test-env.mjs';
import { packageDirs, summarize } from './summarize-tests.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);
// Reports of an earlier run must not be counted in this one.
for (const dir of packageDirs()) rmSync(join(dir, 'test-output/vitest.json'), { force: true });

// `pnpm test` puts the workspace's node_modules/.bin on PATH, turbo's included. What the provisioning started (the
// throwaway PostgreSQL server) is stopped when turbo ends, whether it passed, failed or was interrupted.
const status = await runProvisioned('turbo', ['run', 'typecheck', 'lint', 'format:check', 'test', '--continue', ...process.argv.slice(2)]);
const tests = summarize();
process.exit(status === 0 && tests.ok ? 0 : 1);
