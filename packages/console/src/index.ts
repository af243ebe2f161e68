import { fileURLToPath } from 'node:url';

/**
 * Where `build.mjs` writes the console's files (index.html, console.js, console.css), for the server to serve. In the
 * server's bundle, import.meta.url stays this source file's URL (apps/server/scripts/build.mjs), so the path holds.
 */
export const CONSOLE_DIST = fileURLToPath(new URL('../dist/', import.meta.url));

/** The files of the built console, by the name they are served under (below /console/). */
export const CONSOLE_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};
