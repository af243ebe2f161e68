import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

// docs/bruno is a collection for the Bruno API client. Every request in it runs here, in Bruno's order, against a
// live server, and must meet the assertions written in its file: the collection cannot rot unnoticed.
const COLLECTION = fileURLToPath(new URL('../../../docs/bruno', import.meta.url));

// ---- A parser for the subset of the .bru language the collection uses (anything else is refused) ----------------

type Block = { kind: 'dict'; pairs: [string, string][] } | { kind: 'text'; text: string } | { kind: 'list'; items: string[] };
const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];
const TEXT_BLOCKS = ['body:json', 'body:graphql', 'body:graphql:vars', 'docs'];
const DICT_BLOCKS = ['meta', ...METHODS, 'headers', 'auth:bearer', 'assert', 'vars', 'vars:post-response'];
const LIST_BLOCKS = ['vars:secret'];

/** `name {` … `}` blocks at column 0; dictionaries are `key: value` lines, text blocks are indented by two spaces. */
function parseBru(source: string, file: string): Map<string, Block> {
  const blocks = new Map<string, Block>();
  const lines = source.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const open = /^([\w:-]+) ([{[])$/.exec(line);
    if (!open) throw new Error(`${file}:${i + 1}: expected a block, got ${JSON.stringify(line)}`);
    const [, name, bracket] = open as unknown as [string, string, string];
    const close = bracket === '{' ? '}' : ']';
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== close; i++) body.push(lines[i]!);
    if (i === lines.length) throw new Error(`${file}: block '${name}' is not closed`);
    if (blocks.has(name)) throw new Error(`${file}: block '${name}' appears twice`);
    if (TEXT_BLOCKS.includes(name)) blocks.set(name, { kind: 'text', text: body.map((l) => l.replace(/^ {2}/, '')).join('\n') });
    else if (LIST_BLOCKS.includes(name)) blocks.set(name, { kind: 'list', items: body.map((l) => l.trim()).filter(Boolean) });
    else if (DICT_BLOCKS.includes(name)) {
      const pairs = body
        .filter((l) => l.trim())
        .map((l): [string, string] => {
          const pair = /^\s+([^\s:~][^:]*):\s?(.*)$/.exec(l);
          if (!pair) throw new Error(`${file}: bad line in '${name}': ${JSON.stringify(l)}`);
          return [pair[1]!, pair[2]!];
        });
      blocks.set(name, { kind: 'dict', pairs });
    } else throw new Error(`${file}: block '${name}' is not supported by this test's parser`);
  }
  return blocks;
}

const dict = (blocks: Map<string, Block>, name: string) => {
  const block = blocks.get(name);
  return block?.kind === 'dict' ? block.pairs : [];
};
const text = (blocks: Map<string, Block>, name: string) => {
  const block = blocks.get(name);
  return block?.kind === 'text' ? block.text : undefined;
};
const field = (blocks: Map<string, Block>, name: string, key: string) => dict(blocks, name).find(([k]) => k === key)?.[1];

interface BruRequest {
  file: string;
  order: [number, number];
  blocks: Map<string, Block>;
}

/** Every request file, ordered as Bruno's runner goes: folder `seq` (folder.bru), then request `seq`. */
function loadCollection(dir: string): BruRequest[] {
  const requests: BruRequest[] = [];
  const walk = (folder: string, folderSeq: number) => {
    for (const entry of readdirSync(folder).sort()) {
      const path = join(folder, entry);
      if (statSync(path).isDirectory()) {
        if (entry === 'environments') continue;
        const meta = join(path, 'folder.bru');
        const seq = Number(field(parseBru(readFileSync(meta, 'utf8'), meta), 'meta', 'seq'));
        walk(path, seq);
      } else if (entry.endsWith('.bru') && entry !== 'folder.bru' && entry !== 'collection.bru') {
        const file = relative(dir, path);
        const blocks = parseBru(readFileSync(path, 'utf8'), file);
        requests.push({ file, order: [folderSeq, Number(field(blocks, 'meta', 'seq'))], blocks });
      }
    }
  };
  walk(dir, 0);
  return requests.sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
}

// ---- Running a request the way Bruno does ---------------------------------------------------------------------

/** `{{name}}` from the environment and the runtime variables; an unknown name fails the request. */
const interpolate = (value: string, vars: Map<string, string>, file: string) =>
  value.replace(/\{\{([\w.-]+)\}\}/g, (_, name: string) => {
    const found = vars.get(name);
    if (found === undefined) throw new Error(`${file}: variable {{${name}}} is not defined`);
    return found;
  });

interface Res {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** `res.status`, `res.body.a.b[0].c`: Bruno's paths into the response. */
function lookup(res: Res, path: string): unknown {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (parts.shift() !== 'res') throw new Error(`only res.… paths are supported, got ${path}`);
  let value: unknown = res;
  for (const part of parts) value = value == null ? undefined : (value as Record<string, unknown>)[part];
  return value;
}

/** Bruno's right-hand operand: "quoted" is a string; numbers, booleans and null are themselves; the rest is text. */
function operand(raw: string): unknown {
  if (/^".*"$/.test(raw)) return raw.slice(1, -1);
  if (raw === 'true' || raw === 'false') return raw === 'true';
  if (raw === 'null') return null;
  if (raw !== '' && !Number.isNaN(Number(raw))) return Number(raw);
  return raw;
}

const OPERATORS: Record<string, (actual: unknown, expected: unknown) => boolean> = {
  eq: (a, e) => a === e,
  neq: (a, e) => a !== e,
  contains: (a, e) => (typeof a === 'string' || Array.isArray(a)) && a.includes(e as never),
  startsWith: (a, e) => typeof a === 'string' && a.startsWith(String(e)),
  isDefined: (a) => a !== undefined,
  isUndefined: (a) => a === undefined,
  isString: (a) => typeof a === 'string',
  isNumber: (a) => typeof a === 'number',
  isArray: (a) => Array.isArray(a),
};

async function send(request: BruRequest, vars: Map<string, string>): Promise<Res> {
  const { blocks, file } = request;
  const method = METHODS.find((m) => blocks.has(m));
  if (!method) throw new Error(`${file}: no method block`);
  const url = interpolate(field(blocks, method, 'url') ?? '', vars, file);
  const bodyMode = field(blocks, method, 'body') ?? 'none';
  const authMode = field(blocks, method, 'auth') ?? 'none';
  const headers: Record<string, string> = {};
  for (const [name, value] of dict(blocks, 'headers')) headers[name.toLowerCase()] = interpolate(value, vars, file);
  if (authMode === 'bearer') headers.authorization = `Bearer ${interpolate(field(blocks, 'auth:bearer', 'token') ?? '', vars, file)}`;
  else if (authMode !== 'none') throw new Error(`${file}: auth mode '${authMode}' is not supported by this test`);

  let body: string | undefined;
  if (bodyMode === 'json') body = JSON.stringify(JSON.parse(interpolate(text(blocks, 'body:json') ?? '', vars, file)));
  else if (bodyMode === 'graphql') {
    const variables = text(blocks, 'body:graphql:vars');
    body = JSON.stringify({
      query: interpolate(text(blocks, 'body:graphql') ?? '', vars, file),
      variables: variables ? JSON.parse(interpolate(variables, vars, file)) : {},
    });
  } else if (bodyMode !== 'none') throw new Error(`${file}: body mode '${bodyMode}' is not supported by this test`);
  if (body !== undefined) headers['content-type'] ??= 'application/json';

  const response = await fetch(url, { method: method.toUpperCase(), headers, body });
  const raw = await response.text();
  const isJson = /json/.test(response.headers.get('content-type') ?? '');
  return { status: response.status, headers: Object.fromEntries(response.headers), body: isJson ? JSON.parse(raw) : raw };
}

// ---- The run --------------------------------------------------------------------------------------------------

const requests = loadCollection(COLLECTION);
const environment = parseBru(readFileSync(join(COLLECTION, 'environments/local.bru'), 'utf8'), 'environments/local.bru');
const servers: Mds[] = [];
afterAll(() => Promise.all(servers.map((mds) => mds.close())));

/** A fresh server, and the variables a user starts a Bruno run with: the environment's, its URL and a token (secret). */
async function freshRun(): Promise<Map<string, string>> {
  const mds = await startMds();
  servers.push(mds);
  return new Map([...dict(environment, 'vars'), ['baseUrl', mds.url], ['token', mds.rootToken]]);
}

describe('the Bruno collection (docs/bruno)', () => {
  it('is a collection whose environment declares baseUrl and the secret token', () => {
    expect(JSON.parse(readFileSync(join(COLLECTION, 'bruno.json'), 'utf8'))).toMatchObject({
      version: '1',
      type: 'collection',
      name: 'mds',
    });
    expect(dict(environment, 'vars').map(([name]) => name)).toContain('baseUrl');
    expect(environment.get('vars:secret')).toEqual({ kind: 'list', items: ['token'] });
  });

  it('covers every endpoint, each request declaring its expected status', () => {
    const covered = requests.map(({ file, blocks }) => {
      expect(field(blocks, 'assert', 'res.status'), `${file} has no res.status assertion`).toMatch(/^eq \d{3}$/);
      const method = METHODS.find((m) => blocks.has(m))!;
      const path = field(blocks, method, 'url')!.replace('{{baseUrl}}', '');
      const operation = /^\s*(?:query|mutation)\s+\w+[^{]*\{\s*(\w+)/.exec(text(blocks, 'body:graphql') ?? '')?.[1];
      return operation ? `graphql ${operation}` : `${method.toUpperCase()} ${path}`;
    });
    expect(new Set(covered)).toEqual(
      new Set([
        'GET /health',
        'GET /api/graphiql',
        ...['me', 'listRoles', 'batchAssignRole', 'createAccessToken', 'listAccessTokens', 'revokeAccessToken'].map(
          (op) => `graphql ${op}`,
        ),
        ...['createTag', 'tag', 'updateTag', 'setTagColor', 'updateDescription', 'searchAcrossEntities', 'deleteTag'].map(
          (op) => `graphql ${op}`,
        ),
        'POST /aspects?action=ingestProposal',
        'POST /aspects?action=ingestProposalBatch',
        'POST /gms/operations?action=getIndexSizes',
        'GET /openapi/operations/elasticSearch/getIndexSizes',
        'POST /gms/operations?action=truncateTimeseriesAspect',
        'POST /gms/operations?action=getEsTaskStatus',
      ]),
    );
    expect(covered).toHaveLength(requests.length);
  });

  // One test per folder: Bruno's runner takes a folder's requests in order, sharing its variables (tokenId from
  // createAccessToken, the tag createTag made), so each folder runs whole on a server of its own.
  const folders = new Map<string, BruRequest[]>();
  for (const request of requests) {
    const folder = request.file.split('/')[0]!;
    folders.set(folder, [...(folders.get(folder) ?? []), request]);
  }
  for (const [folder, inOrder] of folders) {
    it(`${folder}: ${inOrder.map((r) => `${r.file} (${r.order.join('.')})`).join(', ')}`, async () => {
      const vars = await freshRun();
      for (const request of inOrder) {
        const res = await send(request, vars);
        for (const [path, assertion] of dict(request.blocks, 'assert')) {
          const [, operator = '', raw = ''] = /^(\w+)\s*(.*)$/.exec(assertion) ?? [];
          const check = OPERATORS[operator];
          if (!check) throw new Error(`${request.file}: assertion operator '${operator}' is not supported by this test`);
          const actual = lookup(res, path);
          const expected = operand(interpolate(raw, vars, request.file));
          const says = `${request.file}: ${path}: ${assertion} — got ${JSON.stringify(actual)}; body ${JSON.stringify(res.body).slice(0, 500)}`;
          expect(check(actual, expected), says).toBe(true);
        }
        for (const [name, path] of dict(request.blocks, 'vars:post-response')) {
          const value = lookup(res, path);
          expect(value, `${request.file}: ${name} = ${path}`).toBeDefined();
          vars.set(name, String(value));
        }
      }
    });
  }
});
