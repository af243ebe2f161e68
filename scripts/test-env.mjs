// Provisions what the test suite needs on this machine before it runs (`pnpm test` calls it first). Each provisioner
// checks before it acts and installs only what is missing, so a ready machine passes in milliseconds; what it cannot
// install itself it names in one line, and the run stops there rather than failing later in a test.
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, chownSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { constants as os, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the browser tests find Debian's Chromium: CHROMIUM_PATH, else the package's binary. */
export function findChromium() {
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find(executable);
}

class MissingPrerequisite extends Error {}

const isRoot = () => process.getuid?.() === 0;
const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** Installs Debian packages with apt-get when running as root; otherwise says how. */
function aptInstall(packages, why) {
  if (!isRoot()) {
    throw new MissingPrerequisite(`${why}: install it with \`sudo apt-get install -y ${packages.join(' ')}\`, then run the tests again.`);
  }
  process.stderr.write(`test-env: installing ${packages.join(' ')} with apt-get (${why})…\n`);
  const quiet = { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } };
  execFileSync('apt-get', ['update', '-qq'], quiet);
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], quiet);
}

/** Undo steps of what the provisioners started (the throwaway PostgreSQL server), run by teardownTestEnv. */
const teardowns = [];

/** Debian's PostgreSQL 15 binaries (initdb, pg_ctl); PG_BIN names another directory. */
const postgresBin = () => process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** A TCP port nobody listens on right now (asked of the kernel by a throwaway process: this module is synchronous). */
const freePort = () =>
  Number(
    execFileSync(
      process.execPath,
      ['-e', "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"],
      {
        encoding: 'utf8',
      },
    ),
  );

/**
 * A throwaway PostgreSQL server for the tests: a fresh cluster in a temporary directory, listening on 127.0.0.1 only,
 * trusting local connections, with fsync off (its data dies with the run; never do this with data you keep). As root
 * it runs as the `postgres` user, since PostgreSQL refuses to run as root. Stopped and deleted by teardownTestEnv.
 */
function startThrowawayPostgres() {
  const bin = postgresBin();
  const asOwner = (command, args) =>
    isRoot() ? ['runuser', ['-u', 'postgres', '--', join(bin, command), ...args]] : [join(bin, command), args];
  const run = (command, args) => execFileSync(...asOwner(command, args), { stdio: ['ignore', 'ignore', 'pipe'] });
  const dir = mkdtempSync(join(tmpdir(), 'mds-test-postgres-'));
  if (isRoot())
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    );
  const data = join(dir, 'data');
  const started = Date.now();
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync']);
  const port = freePort();
  const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  teardowns.push(() => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  process.stderr.write(`test-env: PostgreSQL started on 127.0.0.1:${port} in ${Date.now() - started} ms (stopped when the tests end)\n`);
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/**
 * The provisioners, in order. Each returns environment variables the tests need (or nothing).
 */
const provisioners = {
  chromium() {
    if (findChromium()) return {};
    if (process.env.CHROMIUM_PATH) throw new MissingPrerequisite(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable`);
    aptInstall(['chromium'], "the browser tests drive Debian's chromium");
    if (!findChromium()) throw new MissingPrerequisite('apt-get installed chromium, but /usr/bin/chromium is still missing');
    return {};
  },
  /** MDS_TEST_POSTGRES_URL: the given server (a role allowed to CREATE DATABASE), else a throwaway one. */
  postgres() {
    if (process.env.MDS_TEST_POSTGRES_URL) return {};
    if (!executable(join(postgresBin(), 'pg_ctl'))) {
      aptInstall(['postgresql'], "the PostgreSQL tests start a throwaway server of Debian's postgresql (or set MDS_TEST_POSTGRES_URL)");
      if (!executable(join(postgresBin(), 'pg_ctl')))
        throw new MissingPrerequisite(
          `apt-get installed postgresql, but ${postgresBin()}/pg_ctl is still missing (PG_BIN names another directory)`,
        );
    }
    return { MDS_TEST_POSTGRES_URL: startThrowawayPostgres() };
  },
};

/**
 * Runs every provisioner; returns the environment the tests run with, or exits 1 naming what is missing. What it
 * started stays up until teardownTestEnv, which also runs if the process exits or is interrupted before.
 */
export function provisionTestEnv() {
  const env = {};
  process.once('exit', teardownTestEnv);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => process.exit(128 + os.signals[signal]));
  for (const [name, provision] of Object.entries(provisioners)) {
    try {
      Object.assign(env, provision());
    } catch (error) {
      const reason = error.stderr?.length ? `${error.message}\n${error.stderr}` : error.message;
      const message = error instanceof MissingPrerequisite ? error.message : `${name}: ${reason}`;
      process.stderr.write(`test-env: ${message}\n`);
      process.exit(1);
    }
  }
  return env;
}

/** Stops what provisionTestEnv started (idempotent). */
export function teardownTestEnv() {
  for (const teardown of teardowns.splice(0).reverse()) {
    try {
      teardown();
    } catch (error) {
      process.stderr.write(`test-env: teardown: ${error.message}\n`);
    }
  }
}

/**
 * Runs `command` (the rest of the arguments) in the provisioned environment, then tears it down, passing on its
 * status: `node scripts/test-env.mjs npx vitest run` in a package. Signals go to the command; teardown follows.
 */
export function runProvisioned(command, args, options = {}) {
  const env = { ...process.env, ...provisionTestEnv() };
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env, ...options });
    const forward = (signal) => child.kill(signal);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
      process.removeAllListeners(signal);
      process.on(signal, forward);
    }
    child.on('error', (error) => (process.stderr.write(`test-env: ${command}: ${error.message}\n`), resolve(1)));
    child.on('exit', (code, signal) => {
      teardownTestEnv();
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (command) process.exit(await runProvisioned(command, args));
  provisionTestEnv();
}
