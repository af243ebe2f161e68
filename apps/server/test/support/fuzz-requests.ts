import fc from 'fast-check';
import type { GraphQLSchema } from 'graphql';
import { deeplyNested, edgeJson, edgeNumber, edgeString, wellFormed } from './fuzz-values';
import { graphqlBodies } from './graphql-arbitrary';
import type { HttpRequestSpec } from './raw-http';
import type { GeneratedRequest } from './fuzz-openapi';
import { T0 } from './timeseries-data';
import { URN_TABLE, encodeUrn } from './urn-table';

/** One generated request: through node:http, or as raw bytes on a fresh connection. */
export type FuzzRequest = ({ via: 'http' } & HttpRequestSpec) | { via: 'raw'; bytes: string };

/**
 * How a failing request is printed: exact JSON, except that long repetitions (huge headers, deep nesting) are
 * written as ⟪unit⟫×count so the report stays readable.
 */
function printable<T extends FuzzRequest>(request: T): T {
  const text = () => JSON.stringify(request).replace(/(.{1,8}?)\1{15,}/gs, (run, unit: string) => `⟪${unit}⟫×${run.length / unit.length}`);
  return Object.defineProperty(request, fc.toStringMethod, { value: text, enumerable: false });
}

export interface FuzzContext {
  /** A working bearer token (an Admin) and the system client's Basic credentials. */
  bearer: string;
  basic: string;
  schema: GraphQLSchema;
}

const JSON_TYPE = { 'content-type': 'application/json' };
const PREFIXES = ['/', '/gms/', '/api/gms/'];

const pick = <T>(g: fc.GeneratorValue, items: readonly T[]): T => items[g(fc.integer, { min: 0, max: items.length - 1 })]!;
const chance = (g: fc.GeneratorValue, percent: number) => g(fc.integer, { min: 0, max: 99 }) < percent;

function post(path: string, body: string, authorization: string): FuzzRequest {
  return printable({ via: 'http', method: 'POST', path, headers: { ...JSON_TYPE, authorization }, body });
}

/** GraphQL documents and variables generated from the schema. */
export function graphqlRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(graphqlBodies(ctx.schema), fc.integer({ min: 0, max: 9 }))
    .map(([body, who]) => post('/api/graphql', JSON.stringify(body), who === 0 ? ctx.basic : `Bearer ${ctx.bearer}`));
}

/** Valid bodies of every JSON endpoint, the seeds that mutations start from. */
function baseBodies(): { path: string; body: Record<string, unknown> }[] {
  const proposal = {
    entityType: 'dataset',
    entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.fuzz,PROD)',
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({ timestampMillis: T0, rowCount: 1, eventGranularity: { unit: 'DAY', multiple: 1 } }),
    },
    systemMetadata: { runId: 'fuzz', lastObserved: T0, properties: { a: 'b' } },
  };
  return [
    {
      path: '/api/graphql',
      body: { query: 'query($u: String!) { tag(urn: $u) { urn properties { name } } }', variables: { u: 'urn:li:tag:fuzz' } },
    },
    {
      path: '/api/graphql',
      body: {
        query: 'mutation($i: CreateTagInput!) { createTag(input: $i) }',
        variables: { i: { id: 'mut', name: 'n', description: 'd' } },
      },
    },
    {
      path: '/api/graphql',
      body: { query: '{ searchAcrossEntities(input: { query: "*", start: 0, count: 5 }) { total } }', operationName: null },
    },
    { path: '/aspects?action=ingestProposal', body: { proposal, async: 'false' } },
    // Two copies, not one object twice: structuredClone keeps sharing, so a mutation of one would break both.
    { path: '/aspects?action=ingestProposalBatch', body: { proposals: [proposal, structuredClone(proposal)] } },
    {
      path: '/gms/operations?action=truncateTimeseriesAspect',
      body: { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: T0, dryRun: true, batchSize: 10 },
    },
    { path: '/gms/operations?action=getEsTaskStatus', body: { nodeId: 'abc', taskId: 1 } },
    { path: '/gms/operations?action=getIndexSizes', body: {} },
  ];
}

type Path = (string | number)[];
/** Every path in `value`, the root's (empty) first. */
function pathsOf(value: unknown, at: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [at];
  const children = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
  return [at, ...children.flatMap(([k, v]) => pathsOf(v, [...at, k]))];
}
const valueAt = (root: unknown, path: Path): unknown => path.reduce<any>((value, key) => value[key], root);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
function setAt(root: unknown, path: Path, change: (parent: any, key: string | number) => void): unknown {
  if (path.length === 0) return root;
  change(valueAt(root, path.slice(0, -1)), path[path.length - 1]!);
  return root;
}

/** Valid bodies with one thing broken: a value swapped, a key dropped or added, the text cut or scrambled, deep nesting. */
export function mutatedJsonRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.gen().map((g) => {
    const mutation = g(fc.integer, { min: 0, max: 6 });
    // Dropping needs something to drop: not the empty body of getIndexSizes.
    const base = pick(g, mutation === 1 ? baseBodies().filter((b) => Object.keys(b.body).length > 0) : baseBodies());
    const body = structuredClone<Record<string, unknown>>(base.body);
    const paths = pathsOf(body);
    const path = pick(g, paths);
    const DEEP = '"__deep__"';
    let text: string;
    switch (mutation) {
      case 0:
        text = JSON.stringify(path.length ? setAt(body, path, (p, k) => (p[k] = g(() => edgeJson))) : g(() => edgeJson));
        break;
      case 1: {
        // A key or an element dropped, anywhere but the root (which has no parent to drop it from).
        const dropped = pick(g, paths.slice(1));
        text = JSON.stringify(setAt(body, dropped, (p, k) => (Array.isArray(p) ? p.splice(Number(k), 1) : delete p[k])));
        break;
      }
      case 2: {
        // A key added to an object; defined as an own property, so even "__proto__" is sent as a key.
        const target = valueAt(
          body,
          pick(
            g,
            paths.filter((p) => isPlainObject(valueAt(body, p))),
          ),
        ) as Record<string, unknown>;
        Object.defineProperty(
          target,
          g(() => edgeString),
          { value: g(() => edgeJson), enumerable: true, configurable: true, writable: true },
        );
        text = JSON.stringify(body);
        break;
      }
      case 3: {
        // Cut short before its last character, or one character replaced by zero to three others.
        const full = JSON.stringify(body);
        const at = g(fc.integer, { min: 0, max: full.length - 1 });
        text = chance(g, 50) ? full.slice(0, at) : full.slice(0, at) + g(fc.string, { maxLength: 3 }) + full.slice(at + 1);
        break;
      }
      case 4: {
        // Depths from harmless to far past any recursion limit; JSON.parse itself copes with all of them.
        const depth = pick(g, [10, 1_000, 10_000, 100_000]);
        const nested = deeplyNested(pick(g, ['array', 'object'] as const), depth);
        text = JSON.stringify(path.length ? setAt(body, path, (p, k) => (p[k] = '__deep__')) : '__deep__').replace(DEEP, nested);
        break;
      }
      case 5: {
        // The same inside a JSON text field (a proposal's aspect value), which the server parses itself.
        const depth = pick(g, [1_000, 100_000]);
        const inner = pick(g, ['eventGranularity', 'partitionSpec', 'rowCount', 'timestampMillis']);
        const value = JSON.stringify({ timestampMillis: T0 + 1, [inner]: '__deep__' }).replace(
          DEEP,
          deeplyNested(pick(g, ['array', 'object'] as const), depth),
        );
        text = JSON.stringify({
          proposal: { ...(baseBodies()[3]!.body.proposal as object), aspect: { contentType: 'application/json', value } },
        });
        return post('/aspects?action=ingestProposal', text, `Bearer ${ctx.bearer}`);
      }
      default:
        text = pick(g, [
          '',
          'null',
          '[]',
          '0',
          '""',
          '"text"',
          '{}',
          '[{}]',
          'true',
          '{"__proto__": {"admin": true}}',
          '\ufeff{}',
          '{"a":1,"a":2}',
          '{"query": "{ __typename }"}\n{}',
        ]);
    }
    return post(base.path, text, `Bearer ${ctx.bearer}`);
  });
}

/** Authorization headers from fine to hostile, including sizes around node's 16 KiB header limit. */
function authorizations(g: fc.GeneratorValue, ctx: FuzzContext): string | string[] | undefined {
  const huge = (n: number) => `Bearer ${'A'.repeat(n)}`;
  const [scheme, rest] = [ctx.bearer.split('.'), ctx.basic.slice('Basic '.length)];
  return pick(g, [
    undefined,
    `Bearer ${ctx.bearer}`,
    `bearer   ${ctx.bearer}   `,
    `BEARER ${ctx.bearer}`,
    ctx.basic,
    `Basic ${Buffer.from(rest).toString('base64')}`,
    `Basic ${rest.replace(/.$/, '?')}`,
    `Basic ${rest}x`,
    'Basic Og==',
    'Basic ===',
    `Basic ${Buffer.from('\u0000:\u0000').toString('base64')}`,
    'Bearer',
    'Bearer ',
    `Bearer ${ctx.bearer}x`,
    `Bearer ${scheme[0]}.${scheme[1]}.`,
    `Bearer ${scheme[1]}`,
    'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJkYXRhaHViIn0.',
    'Bearer a.b.c',
    'Token abc',
    'Digest username="x"',
    [`Bearer ${ctx.bearer}`, 'Bearer wrong'],
    ['Bearer wrong', `Bearer ${ctx.bearer}`],
    [ctx.basic, ctx.basic],
    huge(8_000),
    huge(16_000),
    huge(16_300),
    huge(16_384),
    huge(17_000),
    huge(70_000),
    g(() => edgeString).replace(/[^\t\x20-\x7e]/g, ''),
  ]);
}

const CONTENT_TYPES = [
  'application/json',
  'APPLICATION/JSON',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json;;;',
  'application/json ; x=y',
  'application/jsonx',
  'application/graphql',
  'application/x-ndjson',
  'text/plain',
  'text/json',
  'multipart/form-data; boundary=x',
  '',
  ' ',
  '*/*',
];

const REQUEST_IDS = [
  'abc-123',
  '',
  ' ',
  'x'.repeat(128),
  'x'.repeat(129),
  'id with spaces',
  '../../x',
  '${jndi:ldap://x}',
  '<script>',
  'a,b',
];

/** The endpoints with a valid body each, so header problems are the only problems. */
const TARGETS: { path: string; body: string }[] = [
  { path: '/api/graphql', body: JSON.stringify({ query: '{ me { corpUser { urn } } }' }) },
  { path: '/gms/operations?action=getIndexSizes', body: '{}' },
  { path: '/aspects?action=ingestProposalBatch', body: JSON.stringify({ proposals: [] }) },
  { path: '/health', body: '' },
];

/** Odd headers through node:http: Authorization, Content-Type, x-request-id, Origin, Expect, oversized ones. */
export function headerRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.gen().map((g) => {
    const target = pick(g, TARGETS);
    const headers: Record<string, string | string[]> = {};
    const authorization = authorizations(g, ctx);
    if (authorization !== undefined) headers.authorization = authorization;
    if (chance(g, 70)) headers['content-type'] = pick(g, CONTENT_TYPES);
    if (chance(g, 30)) headers['x-request-id'] = chance(g, 20) ? [pick(g, REQUEST_IDS), pick(g, REQUEST_IDS)] : pick(g, REQUEST_IDS);
    if (chance(g, 10)) headers.origin = pick(g, ['null', 'https://evil.example', 'http://127.0.0.1', 'not a url', '']);
    if (chance(g, 5)) headers['x-padding'] = 'p'.repeat(pick(g, [4_000, 15_000, 16_500, 40_000]));
    if (chance(g, 5)) headers['accept-encoding'] = pick(g, ['br', 'gzip;q=0', '*', 'identity;q=0']);
    return printable({
      via: 'http',
      method: target.path === '/health' ? 'GET' : 'POST',
      path: target.path,
      headers,
      body: target.body || undefined,
    });
  });
}

/** Raw bytes: header lines node's client would never write (bad names, high bytes, folding, NULs, bad chunking). */
export function rawRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.gen().map((g) => printable(rawRequest(g, ctx)));
}

function rawRequest(g: fc.GeneratorValue, ctx: FuzzContext): FuzzRequest {
  const target = pick(g, TARGETS.slice(0, 3));
  const method = pick(g, ['POST', 'POST', 'GET', 'PUT', 'CONNECT', 'FOO', 'post', '']);
  const version = pick(g, ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9', '']);
  const lines = [
    `${method} ${pick(g, [target.path, target.path, '*', `http://127.0.0.1${target.path}`, '/%zz', '/api/graphql#x'])} ${version}`,
    'Host: 127.0.0.1',
  ];
  lines.push(
    pick(g, [
      `Authorization: Bearer ${ctx.bearer}`,
      `Authorization: ${ctx.basic}`,
      `Authorization: Bearer ${ctx.bearer}\xff`,
      'Authorization: Bearer \x00abc',
      'Authorization: Bearer \xe9\xe8.\xff.\xfe',
      `Authorization: Bearer ${ctx.bearer}\r\nAuthorization: Bearer other`,
      `Authorization:Bearer ${ctx.bearer}`,
      `Authorization: Bearer\r\n ${ctx.bearer}`,
      'Authorization',
      'Author ization: x',
      '',
    ]),
  );
  lines.push(
    pick(g, [
      'Content-Type: application/json',
      'Content-Type: application/json\xff',
      'Content-Type: \x01',
      'Content-Type: application/json\r\nContent-Type: text/plain',
      '',
    ]),
  );
  if (chance(g, 30))
    lines.push(
      pick(g, [
        'X-Request-Id: \xff\xfe',
        'X-Request-Id: a\x00b',
        `X-Request-Id: ${'\xe9'.repeat(100)}`,
        'X-Request-Id:',
        ': no-name',
        'Bad Header: x',
        'X-Ok: a\tb',
      ]),
    );
  lines.push(
    chance(g, 90)
      ? 'Connection: close'
      : pick(g, [
          'Connection: Upgrade\r\nUpgrade: websocket',
          'Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c',
          'Connection: keep-alive',
        ]),
  );
  const body = target.body;
  switch (g(fc.integer, { min: 0, max: 5 })) {
    case 0:
      lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
      return { via: 'raw', bytes: `${lines.join('\r\n')}\r\n\r\n${body}` };
    case 1:
      // A shorter length than the body: the rest reads as a next (garbage) request.
      lines.push(`Content-Length: ${Math.max(0, body.length - 2)}`);
      return { via: 'raw', bytes: `${lines.join('\r\n')}\r\n\r\n${body}` };
    case 2:
      lines.push(
        pick(g, [
          'Content-Length: -1',
          'Content-Length: abc',
          `Content-Length: ${body.length}, ${body.length}`,
          'Content-Length: 99999999999999999999',
        ]),
      );
      return { via: 'raw', bytes: `${lines.join('\r\n')}\r\n\r\n${body}` };
    case 3:
      lines.push('Transfer-Encoding: chunked');
      return { via: 'raw', bytes: `${lines.join('\r\n')}\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n` };
    case 4:
      lines.push('Transfer-Encoding: chunked', pick(g, ['Content-Length: 2', 'Transfer-Encoding: gzip']));
      return {
        via: 'raw',
        bytes: `${lines.join('\r\n')}\r\n\r\n${pick(g, ['zz\r\n', '1\r\n{\r\n', `${body.length.toString(16)};ext=1\r\n${body}\r\n0\r\n\r\n`, '-1\r\n'])}0\r\n\r\n`,
      };
    default:
      lines.push('Content-Length: 0');
      return { via: 'raw', bytes: `${lines.join('\n')}\n\n` };
  }
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'FOO'];
const PATHS = [
  '/',
  '/health',
  '/health?x=1',
  '/api/graphql',
  '/api/graphql/',
  '/api/graphql?query=%7B__typename%7D',
  '/api/graphiql',
  '/api/graphiql?x',
  '/gms/operations',
  '/gms/operations?action=',
  '/gms/operations?action=getIndexSizes&action=truncateTimeseriesAspect',
  '/api/gms/aspects?action=ingestProposal',
  '/operations?action=getEsTaskStatus',
  '/aspects',
  '/openapi/operations/elasticSearch/getIndexSizes',
  '/openapi/operations/elasticSearch/getIndexSizes?x=%ZZ',
  '//api/graphql',
  '/api/../api/graphql',
  '/api/graphql%00',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/metrics',
  '/ready',
  `/${'a'.repeat(8_000)}`,
  '/gms/operations?action=%F0%9F%8F%B7',
  '/gms/operations?%=%',
];

/** Every method on every path, with or without a body and credentials. */
export function methodRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.gen().map((g) => {
    const method = pick(g, METHODS);
    const headers: Record<string, string> = {};
    if (chance(g, 80)) headers.authorization = chance(g, 80) ? `Bearer ${ctx.bearer}` : ctx.basic;
    if (chance(g, 70)) headers['content-type'] = 'application/json';
    if (method === 'OPTIONS' && chance(g, 50))
      Object.assign(headers, { origin: pick(g, ['https://evil.example', 'null']), 'access-control-request-method': 'POST' });
    const body = chance(g, 50) ? pick(g, ['{}', '{"query":"{ __typename }"}', 'x', '{"proposals":[]}']) : undefined;
    return printable({ via: 'http', method, path: pick(g, PATHS), headers, body });
  });
}

const OPERATION_ACTIONS = [
  'getIndexSizes',
  'truncateTimeseriesAspect',
  'getEsTaskStatus',
  'ingestProposal',
  'restoreIndices',
  'GETINDEXSIZES',
  '',
  'getIndexSizes ',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
];

function operationParams(g: fc.GeneratorValue): Record<string, unknown> {
  const good: Record<string, () => unknown> = {
    entityType: () => pick(g, ['dataset', 'DATASET', 'dashboard', 'chart', 'corpuser', 'spaceship', 'dataJob']),
    aspect: () =>
      pick(g, ['datasetProfile', 'datasetUsageStatistics', 'dashboardUsageStatistics', 'operation', 'ownership', 'DatasetProfile']),
    endTimeMillis: () => pick(g, [T0, T0 + 1_000, T0 - 1, 0, -1, Date.UTC(2100, 0, 1)]),
    dryRun: () => !chance(g, 10),
    batchSize: () => pick(g, [1, 10, 5_000, 100_000]),
    timeoutSeconds: () => pick(g, [1, 60, 3_600]),
    forceDeleteByQuery: () => g(fc.boolean),
    forceReindex: () => g(fc.boolean),
    task: () => pick(g, ['abc:1', 'a:b', ':1', 'x:0', 'x:-1', 'x:9007199254740993', 'n'.repeat(300) + ':1']),
    nodeId: () => pick(g, ['abc', '', 'a:b', 'ü']),
    taskId: () => pick(g, [0, 1, -1, 2 ** 53]),
  };
  const params: Record<string, unknown> = {};
  for (const [key, make] of Object.entries(good)) {
    if (!chance(g, 45)) continue;
    params[key] = chance(g, 75) ? make() : g(() => edgeJson);
  }
  if (chance(g, 5)) params[g(() => edgeString)] = g(() => edgeJson);
  return params;
}

/** `/…/operations?action=…` with random and edge parameters (privileged actions run for real: dryRun may be false). */
export function operationRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.gen().map((g) => {
    const action = chance(g, 85) ? pick(g, OPERATION_ACTIONS) : g(() => edgeString);
    const query = chance(g, 5)
      ? ''
      : `?action=${encodeURIComponent(wellFormed(action))}${chance(g, 5) ? `&action=${encodeURIComponent(pick(g, OPERATION_ACTIONS))}` : ''}`;
    const body = chance(g, 5) ? JSON.stringify(g(() => edgeJson)) : JSON.stringify(operationParams(g));
    return post(`${pick(g, PREFIXES)}operations${query}`, body, chance(g, 85) ? `Bearer ${ctx.bearer}` : ctx.basic);
  });
}

function aspectValue(g: fc.GeneratorValue): string {
  if (chance(g, 10))
    return pick(g, [
      '',
      '{',
      'null',
      '[]',
      '"x"',
      '1',
      '{"timestampMillis": 1e400}',
      '{"timestampMillis": "1"}',
      '{"timestampMillis": 1.5}',
    ]);
  const value: Record<string, unknown> = {};
  if (!chance(g, 5)) value.timestampMillis = chance(g, 80) ? T0 + g(fc.integer, { min: 0, max: 10_000 }) : g(() => edgeNumber);
  if (chance(g, 30))
    value.eventGranularity = chance(g, 70) ? { unit: pick(g, ['DAY', 'HOUR', 'x']), multiple: g(() => edgeNumber) } : g(() => edgeJson);
  if (chance(g, 30)) value.messageId = chance(g, 70) ? g(() => edgeString) : g(() => edgeJson);
  if (chance(g, 30)) {
    value.partitionSpec = pick(g, [
      { partition: 'FULL_TABLE_SNAPSHOT' },
      { timePartition: { startTimeMillis: T0, durationMillis: 1 } },
      { partition: 'p', timePartition: { startTimeMillis: 0 } },
      { partition: 1 },
      { timePartition: 'x' },
      {},
      g(() => edgeJson),
    ]);
  }
  if (chance(g, 30)) value[g(() => edgeString)] = g(() => edgeJson);
  return JSON.stringify(value);
}

function proposal(g: fc.GeneratorValue): unknown {
  const entityType = pick(g, ['dataset', 'dataset', 'dashboard', 'chart', 'DATASET', 'tag', 'nope', '']);
  const urns: Record<string, string> = {
    dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.fuzz,PROD)',
    dashboard: 'urn:li:dashboard:(looker,fuzz)',
    chart: 'urn:li:chart:(looker,fuzz)',
  };
  const entry: Record<string, unknown> = {
    entityType,
    entityUrn: chance(g, 80) ? (urns[entityType] ?? urns.dataset) : g(() => edgeString),
    changeType: chance(g, 85) ? 'UPSERT' : pick(g, ['DELETE', 'CREATE', 'upsert', 'PATCH', '']),
    aspectName: pick(g, [
      'datasetProfile',
      'datasetUsageStatistics',
      'dashboardUsageStatistics',
      'chartUsageStatistics',
      'operation',
      'ownership',
      'DatasetProfile',
    ]),
    aspect: chance(g, 90)
      ? { contentType: pick(g, ['application/json', 'APPLICATION/JSON; charset=utf-8', 'text/plain']), value: aspectValue(g) }
      : g(() => edgeJson),
  };
  if (chance(g, 30))
    entry.systemMetadata = chance(g, 70) ? { runId: g(() => edgeString), lastObserved: g(() => edgeNumber) } : g(() => edgeJson);
  if (chance(g, 5)) entry[pick(g, ['auditHeader', 'entityKeyAspect', 'headers', 'unknown'])] = g(() => edgeJson);
  for (const key of Object.keys(entry)) if (chance(g, 3)) entry[key] = g(() => edgeJson);
  return entry;
}

/** ingestProposal and ingestProposalBatch with proposals that are mostly right and wrong in one place or more. */
export function proposalRequests(ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.gen().map((g) => {
    const batch = chance(g, 40);
    const body = batch
      ? {
          proposals: Array.from({ length: g(fc.integer, { min: 0, max: 6 }) }, () => proposal(g)),
          ...(chance(g, 10) && { async: g(() => edgeJson) }),
        }
      : { proposal: proposal(g), ...(chance(g, 10) && { async: pick(g, ['true', 'false', true, 1, null]) }) };
    const path = `${pick(g, PREFIXES)}aspects?action=${batch ? 'ingestProposalBatch' : 'ingestProposal'}`;
    return post(path, JSON.stringify(body), chance(g, 90) ? `Bearer ${ctx.bearer}` : ctx.basic);
  });
}

/**
 * Hostile inputs on the three faces (issue 30 items 4-6), as requests of `fuzz-openapi`'s shape: URNs of the URN
 * table in every URN slot of Rest.li, GraphQL and OpenAPI, aspect values whose JSON text nests deeply or holds
 * numbers past a double's range or timestamps past a date's, and request bodies that nest deeply themselves.
 */
export function hostileInputRequests(validUrns: readonly string[]): fc.Arbitrary<GeneratedRequest> {
  const urns = [...validUrns, ...URN_TABLE.map((c) => c.urn)];
  return fc.gen().map((g) => hostileRequest(g, urns));
}

/** `"@DEEP@"` in a JSON text replaced by arrays nested `depth` levels (text JSON.stringify could not write). */
const withDeep = (json: string, depth: number) => json.replace('"@DEEP@"', `${'['.repeat(depth)}${']'.repeat(depth)}`);
const DEPTHS = [99, 101, 3_000, 20_000];
const NUMBERS = ['1e309', '-1e309', '-8640000000000001', '8640000000000001', '1.5', '9007199254740993', '0', '-0'];
const ASPECTS = ['status', 'datasetProperties', 'datasetProfile', 'globalTags', 'operation', 'editableDatasetProperties'];

/** An aspect value as JSON text: valid-ish, with a number from NUMBERS, or deeply nested. */
function hostileValue(g: fc.GeneratorValue, aspect: string): string {
  const number = pick(g, NUMBERS);
  switch (g(fc.integer, { min: 0, max: 3 })) {
    case 0:
      return withDeep(
        JSON.stringify({ timestampMillis: T0, removed: false, description: '@DEEP@' }).replace('"description":"@DEEP@"', '"x":"@DEEP@"'),
        pick(g, DEPTHS),
      );
    case 1:
      return `{"timestampMillis": ${number}, "rowCount": 1, "removed": false}`;
    case 2:
      return `{"timestampMillis": ${T0}, "rowCount": ${number}, "columnCount": ${number}, "removed": false, "lastUpdatedTimestamp": ${number}, "operationType": "INSERT"}`;
    default:
      return aspect === 'status' ? '{"removed": false}' : `{"timestampMillis": ${T0}, "description": "fuzz", "name": "fuzz", "tags": []}`;
  }
}

function hostileProposal(g: fc.GeneratorValue, urns: readonly string[]): string {
  const urn = pick(g, urns);
  const aspectName = pick(g, ASPECTS);
  const entityType = /^urn:li:([A-Za-z]+):/.exec(urn)?.[1] ?? 'dataset';
  return JSON.stringify({
    entityType,
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: hostileValue(g, aspectName) },
  });
}

function hostileRequest(g: fc.GeneratorValue, urns: readonly string[]): GeneratedRequest {
  const urn = pick(g, urns);
  const e = encodeUrn(urn);
  const gql = (query: string, variables: string) => ({
    method: 'POST',
    path: '/api/graphql',
    body: `{"query": ${JSON.stringify(query)}, "variables": ${variables}}`,
  });
  const choices: (() => Omit<GeneratedRequest, 'operation'> & { operation: string })[] = [
    () => ({
      operation: 'Rest.li ingestProposal',
      method: 'POST',
      path: '/aspects?action=ingestProposal',
      body: `{"proposal": ${hostileProposal(g, urns)}}`,
    }),
    () => {
      const n = g(fc.integer, { min: 1, max: 3 });
      const proposals = Array.from({ length: n }, () => hostileProposal(g, urns)).join(',');
      return {
        operation: 'Rest.li ingestProposalBatch',
        method: 'POST',
        path: '/aspects?action=ingestProposalBatch',
        body: `{"proposals": [${proposals}]}`,
      };
    },
    () => ({
      operation: 'Rest.li ingest (snapshot)',
      method: 'POST',
      path: '/entities?action=ingest',
      body: withDeep(
        JSON.stringify({
          entity: {
            value: {
              'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn, aspects: [{ 'com.linkedin.common.Status': { removed: '@DEEP@' } }] },
            },
          },
        }),
        pick(g, DEPTHS),
      ),
    }),
    () => ({ operation: 'Rest.li GET /entitiesV2/{urn}', method: 'GET', path: `/entitiesV2/${e}` }),
    () => ({ operation: 'Rest.li GET /entitiesV2?ids', method: 'GET', path: `/entitiesV2?ids=List(${e},${encodeUrn(pick(g, urns))})` }),
    () => ({ operation: 'Rest.li GET /aspects/{urn}', method: 'GET', path: `/aspects/${e}?aspect=${pick(g, ASPECTS)}&version=0` }),
    () => ({ operation: 'Rest.li exists', method: 'POST', path: '/entities?action=exists', body: JSON.stringify({ urn }) }),
    () => ({
      operation: 'Rest.li getTimeseriesAspectValues',
      method: 'POST',
      path: '/aspects?action=getTimeseriesAspectValues',
      body: `{"urn": ${JSON.stringify(urn)}, "entity": "dataset", "aspect": "datasetProfile", "startTimeMillis": ${pick(g, NUMBERS)}}`,
    }),
    () => ({ operation: 'GraphQL entity', ...gql('query($u: String!) { entity(urn: $u) { urn type } }', JSON.stringify({ u: urn })) }),
    () => ({
      operation: 'GraphQL tag',
      ...gql('query($u: String!) { tag(urn: $u) { urn properties { name } } }', JSON.stringify({ u: urn })),
    }),
    () => ({
      operation: 'GraphQL dataset',
      ...gql(
        'query($u: String!) { dataset(urn: $u) { urn properties { name } datasetProfiles(limit: 2) { rowCount } } }',
        JSON.stringify({ u: urn }),
      ),
    }),
    () => ({
      operation: 'GraphQL search',
      ...gql('{ searchAcrossEntities(input: { query: "*", count: 20 }) { total searchResults { entity { urn } } } }', '{}'),
    }),
    () => ({
      operation: 'GraphQL updateDescription',
      ...gql(
        'mutation($u: String!, $d: String!) { updateDescription(input: { resourceUrn: $u, description: $d }) }',
        JSON.stringify({ u: urn, d: 'fuzz' }),
      ),
    }),
    () => ({
      operation: 'GraphQL deep variables',
      ...gql('query($u: String!) { entity(urn: $u) { urn } }', withDeep('{"u": "@DEEP@"}', pick(g, DEPTHS))),
    }),
    () => ({
      operation: 'GraphQL non-finite count',
      ...gql(`{ searchAcrossEntities(input: { query: "*", count: ${pick(g, NUMBERS)} }) { total } }`, '{}'),
    }),
    () => ({ operation: 'OpenAPI GET entity', method: 'GET', path: `/openapi/v3/entity/dataset/${e}` }),
    () => ({
      operation: 'OpenAPI POST entity',
      method: 'POST',
      path: '/openapi/v3/entity/dataset?async=false',
      body: `[{"urn": ${JSON.stringify(urn)}, "datasetProfile": {"value": ${hostileValue(g, 'datasetProfile')}}, "status": {"value": ${hostileValue(g, 'status')}}}]`,
    }),
    () => ({
      operation: 'OpenAPI v1 POST',
      method: 'POST',
      path: '/openapi/entities/v1/',
      body: withDeep(
        JSON.stringify([{ entityType: 'dataset', entityUrn: urn, aspect: { __type: 'Status', removed: '@DEEP@' } }]),
        pick(g, DEPTHS),
      ),
    }),
  ];
  return pick(g, choices)();
}
