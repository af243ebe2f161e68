// Bundles the console (src/ui) into dist/: index.html, console.js, console.css. The server serves these files as they
// are (apps/server/src/console.ts); `pnpm build` runs this before the server's own bundle, and the console's browser
// test runs it first so that tests from source find a fresh bundle. Prints the first load's size, gzipped.
import { build } from 'esbuild';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = fileURLToPath(new URL('.', import.meta.url));
export const CONSOLE_DIST = join(here, 'dist');
/** What a build writes (src/index.ts lists the same names for the server). */
const FILES = ['index.html', 'console.js', 'console.css'];

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mds console</title>
<link rel="stylesheet" href="/console/console.css">
</head>
<body>
<div id="app"></div>
<script type="module" src="/console/console.js"></script>
</body>
</html>
`;

/**
 * Builds dist/ and answers the files of a first load with their sizes (bytes, gzipped bytes at level 9, as the
 * server sends them). `log` prints one line per file and the total.
 */
export async function buildConsole({ log = false } = {}) {
  // Built aside, then each file renamed into place: a server reading dist/ (or another build: the server's bundle
  // test runs one beside the browser test) never sees a missing or half-written file.
  await mkdir(CONSOLE_DIST, { recursive: true });
  const staging = await mkdtemp(join(CONSOLE_DIST, '.build-'));
  try {
    await build({
      entryPoints: { console: join(here, 'src/ui/main.tsx') },
      outdir: staging,
      bundle: true,
      minify: true,
      format: 'esm',
      target: ['chrome111', 'firefox115', 'safari16'],
      jsx: 'automatic',
      jsxImportSource: 'preact',
      legalComments: 'none',
      // Chart.js keeps a few development-only branches behind process.env.NODE_ENV.
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
    await writeFile(join(staging, 'index.html'), INDEX_HTML);
    for (const name of FILES) await rename(join(staging, name), join(CONSOLE_DIST, name));
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  const files = [];
  for (const name of FILES) {
    const body = await readFile(join(CONSOLE_DIST, name));
    files.push({ name, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length });
  }
  const gzipBytes = files.reduce((sum, f) => sum + f.gzipBytes, 0);
  if (log) {
    for (const f of files) console.log(`console: ${f.name.padEnd(12)} ${kb(f.bytes).padStart(9)} ${kb(f.gzipBytes).padStart(9)} gzipped`);
    console.log(`console: first load ${kb(gzipBytes)} gzipped (budget 200 KB)`);
  }
  return { files, gzipBytes };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildConsole({ log: true });
