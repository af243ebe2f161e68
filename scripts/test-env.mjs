// Provisions what the test suite needs on this machine before it runs (`pnpm test` calls it first). Each provisioner
// checks before it acts and installs only what is missing, so a ready machine passes in milliseconds; what it cannot
// install itself it names in one line, and the run stops there rather than failing later in a test.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the browser tests find Debian's Chromium: CHROMIUM_PATH, else the package's binary. */
export function findChromium() {
  const candidates = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

class MissingPrerequisite extends Error {}

const isRoot = () => process.getuid?.() === 0;

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

/**
 * The provisioners, in order. Each returns environment variables the tests need (or nothing). A throwaway
 * PostgreSQL server for the replica tests belongs here too, exporting MDS_TEST_POSTGRES_URL.
 */
const provisioners = {
  chromium() {
    if (findChromium()) return {};
    if (process.env.CHROMIUM_PATH) throw new MissingPrerequisite(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} is not an executable`);
    aptInstall(['chromium'], "the browser tests drive Debian's chromium");
    if (!findChromium()) throw new MissingPrerequisite('apt-get installed chromium, but /usr/bin/chromium is still missing');
    return {};
  },
};

/** Runs every provisioner; returns the environment the tests run with, or exits 1 naming what is missing. */
export function provisionTestEnv() {
  const env = {};
  for (const [name, provision] of Object.entries(provisioners)) {
    try {
      Object.assign(env, provision());
    } catch (error) {
      const message = error instanceof MissingPrerequisite ? error.message : `${name}: ${error.message}`;
      process.stderr.write(`test-env: ${message}\n`);
      process.exit(1);
    }
  }
  return env;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) provisionTestEnv();
