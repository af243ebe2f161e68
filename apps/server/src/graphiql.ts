import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { pagePolicy } from './http/page-policy';

export const EXAMPLE_OPERATION = `# Paste a token into the Headers tab below (mds token create …), then run.
query example {
  appConfig {
    appVersion
  }
}
`;

type Encoding = 'br' | 'gzip';
const compressors: Record<Encoding, (html: Buffer) => Promise<Buffer>> = {
  // Quality 9, not 11: the page is ~9 MB and q11 takes many seconds for a few percent.
  br: (html) => promisify(brotliCompress)(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (html) => promisify(gzip)(html, { level: 9 }),
};

/**
 * The offline GraphiQL explorer, rendered once and compressed once per encoding. All of it happens on the first
 * request: the renderer is a ~9 MB module that would add a quarter second and ~80 MB to every start.
 * An ETag makes a reload cost a 304.
 */
export function createGraphiQLPage(options: { endpoint: string; title: string }) {
  let rendered: Promise<{ html: Buffer; etag: string; csp: string }> | undefined;
  const render = async () => {
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    const html = Buffer.from(
      renderGraphiQL({
        endpoint: options.endpoint,
        title: options.title,
        defaultQuery: EXAMPLE_OPERATION,
        headers: JSON.stringify({ Authorization: 'Bearer <paste a token>' }, null, 2),
        shouldPersistHeaders: true,
        defaultEditorToolsVisibility: 'headers',
      }),
    );
    return {
      html,
      etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 32)}"`,
      csp: contentSecurityPolicy(html.toString('utf8')),
    };
  };
  const compressed = new Map<Encoding, Promise<Buffer>>();

  return async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { html, etag, csp } = await (rendered ??= render());
    const headers = {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      etag,
      'cache-control': 'no-cache',
      vary: 'accept-encoding',
    };
    if (ifNoneMatch(req, etag)) {
      res.writeHead(304, headers).end();
      return;
    }
    const encoding = pickEncoding(req.headers['accept-encoding']);
    let body: Buffer = html;
    if (encoding) {
      if (!compressed.has(encoding)) compressed.set(encoding, compressors[encoding](html));
      body = await compressed.get(encoding)!;
    }
    res.writeHead(200, { ...headers, 'content-length': body.length, ...(encoding && { 'content-encoding': encoding }) });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * The page may run only its own inline scripts (by hash) and talk only to this server. Monaco starts its workers from
 * blob: URLs and inserts style elements at run time; fonts and icons are inlined as data: URLs.
 */
function contentSecurityPolicy(html: string): string {
  const scriptHashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code!).digest('base64')}'`,
  );
  return pagePolicy({ 'script-src': scriptHashes.join(' '), 'worker-src': 'blob:', 'style-src': "'unsafe-inline'", 'font-src': 'data:' });
}

function ifNoneMatch(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  return header !== undefined && header.split(',').some((t) => t.trim() === etag || t.trim() === '*');
}

/** Brotli when the client accepts it (much smaller), else gzip, else identity. Ignores q-values but q=0. */
function pickEncoding(accept: string | undefined): Encoding | undefined {
  const offered = new Set(
    (accept ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !/^\s*q=0(\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => name!.toLowerCase()),
  );
  return offered.has('br') ? 'br' : offered.has('gzip') ? 'gzip' : undefined;
}
