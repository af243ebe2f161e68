import { CONSOLE_DIST, CONSOLE_FILES } from '@mds/console';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { pagePolicy } from './http/page-policy';
import { sendError } from './http/respond';

export const CONSOLE_PATH = '/console';

/** The page may load this origin's script and style only, and talk to this server only (no CDN, no font host). */
const CSP = pagePolicy({ 'script-src': "'self'", 'style-src': "'self'" });

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
  etag: string;
}

/**
 * The operations console (@mds/console) at /console: the files its build wrote, read and gzipped on first request and
 * kept. The page needs no credentials; everything it shows comes from the API with the token the user signs in with.
 */
export function createConsole() {
  const assets = new Map<string, Promise<Asset>>();
  const load = async (name: string): Promise<Asset> => {
    const body = await readFile(join(CONSOLE_DIST, name));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
    return { type: CONSOLE_FILES[name]!, body, gzipped: await promisify(gzip)(body, { level: 9 }), etag };
  };
  const asset = (name: string) => {
    let found = assets.get(name);
    if (!found) {
      found = load(name);
      // Not built yet: try again next time rather than remember the failure.
      found.catch(() => assets.delete(name));
      assets.set(name, found);
    }
    return found;
  };

  /** Each path and the file it serves: the page at /console and /console/, its assets beside it. */
  const paths: Record<string, string> = { [CONSOLE_PATH]: 'index.html', [`${CONSOLE_PATH}/`]: 'index.html' };
  for (const name of Object.keys(CONSOLE_FILES)) paths[`${CONSOLE_PATH}/${name}`] = name;

  return {
    paths,
    async serve(name: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
      let file: Asset;
      try {
        file = await asset(name);
      } catch {
        return sendError(res, 503, 'The console is not built: run `npx -y pnpm@10.34.9 --filter @mds/console build`.');
      }
      const headers = {
        'content-type': file.type,
        'content-security-policy': CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        etag: file.etag,
        'cache-control': 'no-cache',
        vary: 'accept-encoding',
      };
      const match = req.headers['if-none-match'];
      if (match !== undefined && match.split(',').some((t) => t.trim() === file.etag)) return void res.writeHead(304, headers).end();
      const gzipped = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '');
      const body = gzipped ? file.gzipped : file.body;
      res.writeHead(200, { ...headers, 'content-length': body.length, ...(gzipped && { 'content-encoding': 'gzip' }) });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  };
}
