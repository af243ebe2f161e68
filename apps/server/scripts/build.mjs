// Bundles the server and CLI into dist/mds.mjs: one file that starts in a fraction of the time tsx needs to load
// the TypeScript sources. Tests keep running from source; `pnpm start` and the benchmark run this bundle.
import { buildConsole } from '@mds/console/build';
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { keepSourceLocation, nodeBundle } from './bundle-options.mjs';

/**
 * graphql-js checks every `isObjectType`/`isListType`/… that answers no (most of them: each value it completes, each
 * field mds converts) for a second copy of graphql unless NODE_ENV is `production`: a string comparison through
 * `Symbol.toStringTag` that cost ~7 % of a dataset read. The bundle holds exactly one copy, so the
 * check cannot find anything in it (`mainFields` in bundle-options.mjs): its instanceOf is the plain `instanceof`, whatever NODE_ENV says (NODE_ENV keeps
 * its meaning for mds's own configuration).
 */
const plainGraphQLInstanceOf = {
  name: 'plain-graphql-instanceof',
  setup(build) {
    build.onLoad({ filter: /[\\/]graphql[\\/]jsutils[\\/]instanceOf\.m?js$/ }, () => ({
      contents: 'export const instanceOf = (value, constructor) => value instanceof constructor;',
      loader: 'js',
    }));
  },
};

// The folder to write (relative to apps/server): `dist` unless given. It must sit inside the workspace, where the
// bundle's external imports (better-sqlite3) resolve. The bundle test writes its own, so that it never replaces the
// bundle another process (the benchmark's smoke test) is running.
const outdir = process.argv[2] ?? 'dist';

// Chunk names carry content hashes: without a clean start, every build would leave the previous chunks behind.
await rm(outdir, { recursive: true, force: true });

await build({
  ...nodeBundle,
  entryPoints: ['src/main.ts'],
  outdir,
  entryNames: 'mds',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  // Code behind dynamic imports (the Elasticsearch client) becomes chunks loaded only when used.
  splitting: true,
  // Native code, and the 9 MB explorer page that is loaded on its first request only.
  external: ['better-sqlite3', '@graphql-yoga/render-graphiql'],
  plugins: [keepSourceLocation, plainGraphQLInstanceOf],
});

// The operations console's page and assets (packages/console/dist), served by the bundle from where they are built.
await buildConsole({ log: true });
