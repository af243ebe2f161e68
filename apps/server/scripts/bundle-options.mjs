// What every bundle of the workspace's TypeScript for node shares: mds's own (build.mjs) and the benchmark's bare store
// (bench/src/bare-store/process.ts), so that the two run their code loaded the same way.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/**
 * Workspace packages (and the host) find their migrations, SDL files and worker scripts next to their own source
 * (`new URL(…, import.meta.url)`). Pin each module's import.meta.url to its source file so those paths keep working
 * from inside the bundle.
 */
export const keepSourceLocation = {
  name: 'keep-source-location',
  setup(build) {
    build.onLoad({ filter: /[\\/](packages[\\/][^\\/]+|apps[\\/]server)[\\/]src[\\/].*\.[jt]s$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: args.path.endsWith('.ts') ? 'ts' : 'js',
    }));
  },
};

/** esbuild's options for an ES module bundle run by node 20. */
export const nodeBundle = {
  bundle: true,
  platform: 'node',
  // ES modules first, for entry points and deep imports (`graphql/language/parser`) alike: one copy of graphql (two
  // would break its instanceof checks), and no CommonJS interop getter on every call into it.
  mainFields: ['module', 'main'],
  resolveExtensions: ['.ts', '.mjs', '.js', '.cjs', '.json'],
  format: 'esm',
  target: 'node20',
  // CommonJS dependencies inside an ES module bundle still call require().
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Comments and indentation dropped: V8 keeps every script's source in the heap, and one character outside Latin-1
  // (a `…` or `§` in a comment) makes it keep the whole file as UTF-16, twice its size: 14 MB of mds's 41 MB heap at
  // start was its two bundle files. Names and code stay as written (no renaming), so stack traces still read.
  minifyWhitespace: true,
  charset: 'ascii',
  logLevel: 'warning',
};
