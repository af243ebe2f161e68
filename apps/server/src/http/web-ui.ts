import { createReadStream, realpathSync, statSync, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { sendError } from './respond';

/**
 * A build of DataHub's web UI (MDS_WEB_UI_DIR: the `dist` folder of `yarn build` in datahub-web-react), served as
 * DataHub's frontend serves it: its files as they are, `index.html` for any other page path (the UI routes in the
 * browser), never for a path of the API. Files are read from disk on each request, so a new build needs no restart.
 */
export interface WebUi {
  /** Whether `path` is the UI's to answer (not an API path); mds's own routes are matched before it. */
  owns(path: string): boolean;
  serve(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
}

/** Paths of mds's APIs: never the UI's, even where mds has no route. */
const API_PREFIXES = ['/api/', '/openapi/', '/gms/'];
/** Folders of the build's own files: a miss there is a 404, not the UI's page. */
const FILE_PREFIXES = ['/assets/', '/node_modules/'];

/** Vite names a built file `<name>-<hash>.<ext>`; its content never changes under that name. */
const HASHED = /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.wasm': 'application/wasm',
};

/**
 * The policy the UI works under: its own scripts only (no inline script, no eval), its own API, web workers from its
 * files or blobs (the query editor's), styles inline as its component libraries inject them, images from anywhere
 * over https (users' pictures, platform logos by URL), never framed by another site.
 */
export const WEB_UI_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** Checks the folder at start: it must exist and hold index.html. */
export function createWebUi(dir: string): WebUi {
  let root: string;
  try {
    root = realpathSync(dir);
    if (!statSync(join(root, 'index.html')).isFile()) throw new Error('index.html is not a file');
  } catch {
    throw new Error(`MDS_WEB_UI_DIR=${dir} holds no index.html: point it at the dist folder of a built DataHub web UI`);
  }
  const index = join(root, 'index.html');

  /** The file `path` names inside the folder, or null (missing, a folder, outside it through `..` or a link). */
  async function fileOf(path: string): Promise<{ file: string; stats: Stats } | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    try {
      const file = await realpath(join(root, decoded));
      if (!file.startsWith(root + sep)) return null;
      const stats = await stat(file);
      return stats.isFile() ? { file, stats } : null;
    } catch {
      return null;
    }
  }

  return {
    owns: (path) => !API_PREFIXES.some((prefix) => path.startsWith(prefix)),
    async serve(req, res, path) {
      const found = path === '/' ? null : await fileOf(path);
      if (!found && FILE_PREFIXES.some((prefix) => path.startsWith(prefix))) return sendError(res, 404, `No file ${path} in the web UI`);
      const { file, stats } = found ?? { file: index, stats: await stat(index) };
      const page = file === index;
      const etag = `"${stats.size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`;
      const headers: Record<string, string | number> = {
        'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': !page && HASHED.test(file) ? IMMUTABLE : 'no-cache',
        etag,
        'x-content-type-options': 'nosniff',
      };
      if (page) Object.assign(headers, { 'content-security-policy': WEB_UI_POLICY, 'referrer-policy': 'same-origin' });
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
      res.writeHead(200, { ...headers, 'content-length': stats.size });
      if (req.method === 'HEAD') return void res.end();
      await new Promise<void>((resolve, reject) => {
        const stream = createReadStream(file);
        stream.on('error', reject);
        res.on('close', resolve);
        stream.pipe(res);
      });
    },
  };
}
