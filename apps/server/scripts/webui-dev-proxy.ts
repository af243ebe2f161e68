// A development stand-in for DataHub's frontend server, for looking at a build of DataHub's web UI against a running
// mds by hand (test/webui/README.md says how to build one). It is not a frontend: it has no users and no passwords;
// every browser that reaches it acts as the holder of the one token it is given. So it listens on loopback only.
//
//   pnpm --filter @mds/server exec tsx scripts/webui-dev-proxy.ts --ui <datahub-web-react/dist> \
//     [--mds http://127.0.0.1:8080] [--port 9002]          (the token from MDS_TOKEN)
//
// - static files of the build, and index.html for every other GET (the UI routes in the browser);
// - GET /authenticate?redirect_uri=<path>: sets the `actor` cookie the UI checks (the token's actor) and redirects to
//   that path on this host (anything else: to /);
// - GET /logOut: clears the cookie; POST /logIn: refused (sign in through /authenticate);
// - POST /api/v2/graphql: forwarded to mds's /api/graphql; /api/* and /openapi/*: forwarded as they are; each with the
//   token as `Authorization: Bearer`. Each request is logged with its status and, for GraphQL, the operation name.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.mp4': 'video/mp4',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
};

const { values } = parseArgs({
  options: { ui: { type: 'string' }, mds: { type: 'string', default: 'http://127.0.0.1:8080' }, port: { type: 'string', default: '9002' } },
});
const token = process.env.MDS_TOKEN;
if (!values.ui || !existsSync(join(values.ui, 'index.html')))
  throw new Error('--ui must name a build of datahub-web-react (its dist folder)');
if (!token) throw new Error('set MDS_TOKEN to an mds access token: every request goes out with it');
const root = resolve(values.ui);
const mds = values.mds.replace(/\/$/, '');

/** The token's actor, asked of mds once: the `actor` cookie must name it, as DataHub's frontend sets it. */
async function actorOfToken(): Promise<string> {
  const res = await fetch(`${mds}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ me { corpUser { urn } } }' }),
  });
  const body = (await res.json()) as { data?: { me?: { corpUser?: { urn?: string } } } };
  const urn = body.data?.me?.corpUser?.urn;
  if (!urn) throw new Error(`mds at ${mds} did not say whose token this is (${res.status}): ${JSON.stringify(body)}`);
  return urn;
}
const actor = await actorOfToken();

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

async function forward(req: IncomingMessage, res: ServerResponse, path: string): Promise<string> {
  const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
  let operation = '';
  if (body && path === '/api/graphql') {
    try {
      operation = (JSON.parse(body.toString('utf8')) as { operationName?: string }).operationName ?? '';
    } catch {
      operation = '(not JSON)';
    }
  }
  const answer = await fetch(mds + path, {
    method: req.method,
    headers: { 'content-type': req.headers['content-type'] ?? 'application/json', authorization: `Bearer ${token}` },
    body,
  });
  const text = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' });
  res.end(text);
  if (!operation) return '';
  try {
    const errors = (JSON.parse(text.toString('utf8')) as { errors?: { message: string }[] }).errors;
    if (errors?.length) return `${operation}: ${errors.length} errors, first: ${errors[0]!.message}`;
  } catch {
    // not a GraphQL answer: the status says enough
  }
  return operation;
}

function serveFile(res: ServerResponse, pathname: string) {
  const file = normalize(join(root, decodeURIComponent(pathname)));
  const inside = file === root || file.startsWith(root + sep);
  const target = inside && existsSync(file) && statSync(file).isFile() ? file : join(root, 'index.html');
  res.writeHead(200, { 'content-type': TYPES[extname(target)] ?? 'application/octet-stream' });
  createReadStream(target).pipe(res);
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const done = (note = '') => console.log(`${req.method} ${url.pathname}${url.search} ${res.statusCode}${note ? ` ${note}` : ''}`);
  void (async () => {
    if (url.pathname === '/authenticate') {
      const wanted = url.searchParams.get('redirect_uri') ?? '/';
      const local = wanted.startsWith('/') && !wanted.startsWith('//') ? wanted : '/';
      res.writeHead(302, { location: local, 'set-cookie': `actor=${encodeURIComponent(actor)}; Path=/; SameSite=Lax` });
      res.end();
    } else if (url.pathname === '/logOut') {
      res.writeHead(302, { location: '/login', 'set-cookie': 'actor=; Path=/; Max-Age=0' });
      res.end();
    } else if (url.pathname === '/logIn') {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'this development proxy has no passwords: open /authenticate to act as its token' }));
    } else if (url.pathname === '/api/v2/graphql') {
      return done(await forward(req, res, '/api/graphql'));
    } else if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/openapi/')) {
      return done(await forward(req, res, url.pathname + url.search));
    } else if (req.method === 'GET' || req.method === 'HEAD') {
      serveFile(res, url.pathname);
    } else {
      res.writeHead(405).end();
    }
    done();
  })().catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`mds did not answer: ${String(error)}`);
    done(String(error));
  });
});
server.listen(Number(values.port), '127.0.0.1', () => {
  console.log(`DataHub's web UI from ${root} on http://127.0.0.1:${values.port}/, signed in as ${actor} against ${mds}`);
});
