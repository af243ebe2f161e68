import { keepSourceLocation, nodeBundle } from '@mds/server/bundle-options';
import { build, type Plugin } from 'esbuild';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTempDir, spawnListening, type ListeningChild } from '../children.ts';
import { startNodeOptions } from '../mds-process.ts';

/** better-sqlite3 (native) stays outside the bundle, imported from where @mds/db resolves it, wherever the bundle is. */
const sqliteFromDb: Plugin = {
  name: 'better-sqlite3-from-db',
  setup(b) {
    const fromDb = createRequire(createRequire(import.meta.url).resolve('@mds/db'));
    b.onResolve({ filter: /^better-sqlite3$/ }, () => ({ path: pathToFileURL(fromDb.resolve('better-sqlite3')).href, external: true }));
  },
};

/**
 * The bare store (server.ts) in its own process on a fresh temp directory, bundled as mds is (esbuild, one file: no
 * TypeScript loader at run time) and run with the node options mds runs with, so that the two differ by what mds
 * checks, not by how their code is loaded.
 */
export async function startBareStoreProcess(): Promise<ListeningChild> {
  const dir = makeTempDir('mds-bench-bare-');
  const bundle = join(dir, 'bare-store.mjs');
  await build({
    ...nodeBundle,
    entryPoints: [fileURLToPath(new URL('./server.ts', import.meta.url))],
    outfile: bundle,
    plugins: [keepSourceLocation, sqliteFromDb],
  });
  return spawnListening(process.execPath, [...startNodeOptions(), bundle, dir], {
    env: { PATH: process.env.PATH },
    urlPattern: /bare store listening on (http:\/\/\S+)/,
    what: 'bare store',
  });
}
