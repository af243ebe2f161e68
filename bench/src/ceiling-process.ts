import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnListening, type ListeningChild } from './children.ts';

/** The ceiling runs in its own process, like mds, so neither shares an event loop with the load generator. */
export function startCeilingProcess(): Promise<ListeningChild> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const entry = fileURLToPath(new URL('./ceiling.ts', import.meta.url));
  return spawnListening(process.execPath, ['--import', tsx, entry], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production' },
    urlPattern: /ceiling listening on (http:\/\/\S+)/,
    what: 'ceiling server',
  });
}
