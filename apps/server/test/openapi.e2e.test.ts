import { createOpenApiClient } from '@mds/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

// entities-api §8 over HTTP: DataHub's OpenAPI v3 entity API, what a client sends and sees, errors included.
const V3 = '/openapi/v3/entity';
const enc = encodeURIComponent;
const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const ORDERS = dataset('db.orders');
const tags = (...names: string[]) => ({ tags: names.map((name) => ({ tag: `urn:li:tag:${name}` })) });
const keyOf = (name: string) => ({ platform: 'urn:li:dataPlatform:hive', name, origin: 'PROD' });

let mds: Mds;
let editor: string;
let reader: string;

interface Reply {
  status: number;
  headers: Headers;
  body: any;
}
/** One HTTP call with a bearer token (root's by default); a body is sent as JSON. */
async function call(
  method: string,
  path: string,
  body?: unknown,
  token: string | null = mds.rootToken,
  contentType = 'application/json',
): Promise<Reply> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  if (body !== undefined) headers['content-type'] = contentType;
  const res = await fetch(mds.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
const get = (path: string, token?: string | null) => call('GET', path, undefined, token);
const entityPath = (urn: string, aspect?: string) => `${V3}/dataset/${enc(urn)}${aspect ? `/${aspect}` : ''}`;
/** Writes aspects through the batch POST, synchronously answered (async=false). */
const upsert = (urn: string, aspects: Record<string, unknown>) =>
  call('POST', `${V3}/dataset?async=false`, [
    { urn, ...Object.fromEntries(Object.entries(aspects).map(([name, value]) => [name, { value }])) },
  ]);

beforeAll(async () => {
  mds = await startMds();
  editor = await mds.tokenFor('urn:li:corpuser:editor', 'urn:li:dataHubRole:Editor');
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

describe('reads', () => {
  it('GET an entity: its key and every stored aspect, plain; systemMetadata=true adds systemMetadata and auditStamp', async () => {
    expect((await upsert(ORDERS, { globalTags: tags('pii'), status: { removed: false } })).status).toBe(200);
    expect(await get(entityPath(ORDERS))).toMatchObject({
      status: 200,
      body: {
        urn: ORDERS,
        datasetKey: { value: keyOf('db.orders') },
        globalTags: { value: tags('pii') },
        status: { value: { removed: false } },
      },
    });
    const { body } = await get(`${entityPath(ORDERS)}?systemMetadata=true`);
    expect(body.globalTags).toEqual({
      value: tags('pii'),
      systemMetadata: expect.objectContaining({ version: '1', runId: 'no-run-id-provided' }),
      auditStamp: { time: expect.any(Number), actor: 'urn:li:corpuser:datahub' },
    });
    expect((await get(entityPath(ORDERS))).body.globalTags).toEqual({ value: tags('pii') });
  });

  it('GET an entity with aspects= (repeatable or a comma list, or aspectNames=): those and the key', async () => {
    const { body } = await get(`${entityPath(ORDERS)}?aspects=globalTags`);
    expect(Object.keys(body).sort()).toEqual(['datasetKey', 'globalTags', 'urn']);
    expect(Object.keys((await get(`${entityPath(ORDERS)}?aspects=globalTags,status`)).body).sort()).toEqual([
      'datasetKey',
      'globalTags',
      'status',
      'urn',
    ]);
    expect(Object.keys((await get(`${entityPath(ORDERS)}?aspectNames=status&aspects=globalTags`)).body).sort()).toEqual([
      'datasetKey',
      'globalTags',
      'status',
      'urn',
    ]);
  });

  it('GET of an absent entity: 404 with Not-Found-Reason: ENTITY; HEAD 204 / 404', async () => {
    const absent = await get(entityPath(dataset('db.absent')));
    expect(absent.status).toBe(404);
    expect(absent.headers.get('not-found-reason')).toBe('ENTITY');
    expect(absent.body).toEqual({ error: `Entity ${dataset('db.absent')} not found` });
    expect((await call('HEAD', entityPath(ORDERS))).status).toBe(204);
    expect((await call('HEAD', entityPath(dataset('db.absent')))).status).toBe(404);
  });

  it('GET and HEAD of one aspect: the value, a version, 404 when absent', async () => {
    await upsert(ORDERS, { datasetProperties: { description: 'first', customProperties: {} } });
    await upsert(ORDERS, { datasetProperties: { description: 'second', customProperties: {} } });
    expect(await get(entityPath(ORDERS, 'datasetProperties'))).toMatchObject({
      status: 200,
      body: { value: { description: 'second', customProperties: {} } },
    });
    expect((await get(`${entityPath(ORDERS, 'datasetProperties')}?version=1`)).body).toEqual({
      value: { description: 'first', customProperties: {} },
    });
    expect((await get(`${entityPath(ORDERS, 'datasetProperties')}?systemMetadata=true`)).body.systemMetadata.version).toBe('2');
    const missing = await get(entityPath(ORDERS, 'ownership'));
    expect(missing).toMatchObject({ status: 404, body: { error: `Aspect ownership of ${ORDERS} not found` } });
    expect(missing.headers.get('not-found-reason')).toBe('ENTITY');
    expect((await call('HEAD', entityPath(ORDERS, 'datasetProperties'))).status).toBe(204);
    expect((await call('HEAD', entityPath(ORDERS, 'ownership'))).status).toBe(404);
  });

  it('HEAD hides a soft-deleted entity unless includeSoftDelete=true; GET still reads it (§3.5)', async () => {
    const gone = dataset('db.soft_deleted');
    await upsert(gone, { status: { removed: true } });
    expect((await call('HEAD', entityPath(gone))).status).toBe(404);
    expect((await call('HEAD', `${entityPath(gone)}?includeSoftDelete=true`)).status).toBe(204);
    expect((await call('HEAD', `${entityPath(gone, 'status')}?includeSoftDelete=true`)).status).toBe(204);
    expect((await get(entityPath(gone))).body.status).toEqual({ value: { removed: true } });
  });

  it('is served under /api/gms too, and an unencoded urn reads the same', async () => {
    expect((await get(`/api/gms${entityPath(ORDERS, 'globalTags')}`)).body).toEqual({ value: tags('pii') });
    expect((await get(`${V3}/dataset/${ORDERS}/globalTags`)).body).toEqual({ value: tags('pii') });
  });

  it('refuses a bad urn (400 Invalid urn!), an unknown entity (404), an unknown aspect (naming it), a bad parameter (400)', async () => {
    expect(await get(`${V3}/dataset/not-a-urn`)).toMatchObject({ status: 400, body: { error: expect.stringContaining('Invalid urn!') } });
    expect(await get(`${V3}/dataset/${enc('urn:li:corpuser:jdoe')}`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Invalid urn!') },
    });
    expect(await get(`${V3}/nosuchentity/${enc(ORDERS)}`)).toEqual(
      expect.objectContaining({ status: 404, body: { error: 'Unknown entity: nosuchentity' } }),
    );
    expect(await get(entityPath(ORDERS, 'nosuchAspect'))).toMatchObject({
      status: 404,
      body: { error: 'Unknown aspect nosuchAspect for entity dataset' },
    });
    expect(await get(`${entityPath(ORDERS)}?aspects=nosuchAspect`)).toMatchObject({
      status: 400,
      body: { error: 'Unknown aspect nosuchAspect for entity dataset' },
    });
    expect(await get(`${entityPath(ORDERS)}?systemMetadata=yes`)).toMatchObject({
      status: 400,
      body: { error: "Parameter 'systemMetadata' must be true or false, got: yes" },
    });
    expect(await get(`${V3}/dataset/${ORDERS.replace('hive', 'h%ZZive')}`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Malformed percent-encoding') },
    });
  });

  it('needs credentials (401), and answers a method the path lacks with 405', async () => {
    expect(await get(entityPath(ORDERS), null)).toMatchObject({ status: 401, body: { error: 'Unauthorized to perform this action.' } });
    const put = await call('PUT', entityPath(ORDERS), {});
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toContain('GET');
  });
});

describe('writes', () => {
  const CUSTOMERS = dataset('db.customers');

  it('POST a batch: async by default (202), answered with the written aspects as stored; readable at once', async () => {
    const item = {
      urn: CUSTOMERS,
      globalTags: { value: tags('pii'), systemMetadata: { runId: 'openapi-run' } },
      status: { value: { removed: false } },
    };
    const answer = await call('POST', `${V3}/dataset?systemMetadata=true`, [item]);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual([
      {
        urn: CUSTOMERS,
        globalTags: {
          value: tags('pii'),
          systemMetadata: expect.objectContaining({ runId: 'openapi-run', version: '1' }),
          auditStamp: expect.any(Object),
        },
        status: { value: { removed: false }, systemMetadata: expect.any(Object), auditStamp: expect.any(Object) },
      },
    ]);
    expect((await get(entityPath(CUSTOMERS))).body.datasetKey).toEqual({ value: keyOf('db.customers') });
    expect((await call('POST', `${V3}/dataset?async=false`, [{ urn: CUSTOMERS, status: { value: { removed: false } } }])).status).toBe(200);
  });

  it('POST one aspect: CREATE by default (an existing aspect is a 422), UPSERT with createIfNotExists=false, CREATE_ENTITY when asked', async () => {
    const path = entityPath(CUSTOMERS, 'datasetProperties');
    const first = await call('POST', path, { value: { description: 'v1', customProperties: {} } });
    expect(first).toMatchObject({
      status: 200,
      body: { urn: CUSTOMERS, datasetProperties: { value: { description: 'v1', customProperties: {} } } },
    });
    expect(await call('POST', path, { value: { description: 'v2', customProperties: {} } })).toMatchObject({
      status: 422,
      body: { error: 'Cannot perform CREATE since the aspect already exists.' },
    });
    expect(
      (await call('POST', `${path}?createIfNotExists=false&async=true`, { value: { description: 'v2', customProperties: {} } })).status,
    ).toBe(202);
    expect((await get(path)).body.value.description).toBe('v2');
    expect(
      await call('POST', `${path}?createIfEntityNotExists=true`, { value: { description: 'v3', customProperties: {} } }),
    ).toMatchObject({
      status: 422,
      body: { error: 'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.' },
    });
    const fresh = dataset('db.fresh');
    expect((await call('POST', `${entityPath(fresh, 'status')}?createIfEntityNotExists=true`, { value: { removed: false } })).status).toBe(
      200,
    );
  });

  it('If-None-Match: * in an item’s headers turns the CREATE conflict into a no-op; If-Version-Match guards a write (§6.3)', async () => {
    const path = entityPath(CUSTOMERS, 'datasetProperties');
    const skip = await call('POST', path, { value: { description: 'ignored', customProperties: {} }, headers: { 'If-None-Match': '*' } });
    expect(skip).toMatchObject({ status: 200, body: { datasetProperties: { value: { description: 'v2' } } } });
    expect(
      await call('POST', `${path}?createIfNotExists=false`, {
        value: { description: 'v9', customProperties: {} },
        headers: { 'If-Version-Match': '1' },
      }),
    ).toMatchObject({
      status: 422,
      body: { error: expect.stringContaining('If-Version-Match') },
    });
  });

  it('PATCH one aspect with {patch, arrayPrimaryKeys} or a bare op array (§6.6); an aspect without a template is a 422', async () => {
    const path = entityPath(CUSTOMERS, 'globalTags');
    const patched = await call('PATCH', path, { patch: [{ op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } }] });
    expect(patched).toMatchObject({ status: 200, body: { urn: CUSTOMERS, globalTags: { value: tags('pii', 'gold') } } });
    const bare = await call('PATCH', path, [{ op: 'remove', path: '/tags/urn:li:tag:pii' }], mds.rootToken, 'application/json-patch+json');
    expect(bare.body.globalTags.value).toEqual(tags('gold'));
    expect(await call('PATCH', entityPath(CUSTOMERS, 'subTypes'), { patch: [] })).toMatchObject({
      status: 422,
      body: { error: 'Aspect: subTypes does not currently support patch operations.' },
    });
  });

  it('PATCH a batch: each item’s value holds its patch; async by default (202)', async () => {
    const answer = await call('PATCH', `${V3}/dataset`, [
      { urn: CUSTOMERS, globalTags: { value: { patch: [{ op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }] } } },
    ]);
    expect(answer).toMatchObject({ status: 202, body: [{ urn: CUSTOMERS, globalTags: { value: tags('gold', 'pii') } }] });
    expect(await call('PATCH', `${V3}/dataset`, [{ urn: CUSTOMERS, globalTags: { value: { ops: [] } } }])).toMatchObject({
      status: 400,
      body: { error: 'Missing `patch` field.' },
    });
  });

  it('refuses malformed bodies with 400 and invalid values with 422, naming the problem, writing nothing of the batch', async () => {
    const batch = `${V3}/dataset`;
    expect(await call('POST', batch, '{not json')).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Request body is not valid JSON') },
    });
    expect(await call('POST', batch, { urn: CUSTOMERS })).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('must be a JSON array') },
    });
    expect(await call('POST', batch, [{ status: { value: {} } }])).toMatchObject({ status: 400, body: { error: 'Missing `urn` field' } });
    expect(await call('POST', batch, [{ urn: 'bad' }])).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Invalid urn!') },
    });
    expect(await call('POST', batch, [{ urn: CUSTOMERS, status: { removed: true } }])).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('"value" must be the aspect') },
    });
    expect(await call('POST', batch, [{ urn: CUSTOMERS, nosuchAspect: { value: {} } }])).toMatchObject({
      status: 422,
      body: { error: 'Unknown aspect nosuchAspect for entity dataset' },
    });
    const NEW = dataset('db.never_written');
    const mixed = await call('POST', batch, [
      { urn: NEW, status: { value: { removed: false } } },
      { urn: NEW, schemaMetadata: { value: { schemaName: 'x' } } },
    ]);
    expect(mixed).toMatchObject({
      status: 422,
      body: { error: expect.stringContaining('Failed to validate record with class com.linkedin.schema.SchemaMetadata') },
    });
    expect(mixed.body.error).toMatch(/^\[1\]\.schemaMetadata: /);
    expect((await get(entityPath(NEW))).status).toBe(404);
    expect(await call('POST', entityPath(CUSTOMERS, 'status'), ['x'])).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('must be a JSON object') },
    });
    expect(await call('POST', entityPath(CUSTOMERS, 'status'), { removed: true }, mds.rootToken, 'text/plain')).toMatchObject({
      status: 415,
    });
  });

  it('a bad parameter is refused before anything is written (found by the fuzzing: async=e2q used to write, then answer 400)', async () => {
    const NEW = dataset('db.bad_async');
    expect(await call('POST', `${entityPath(NEW, 'status')}?async=e2q`, { value: { removed: false } })).toMatchObject({
      status: 400,
      body: { error: "Parameter 'async' must be true or false, got: e2q" },
    });
    expect(await call('POST', `${V3}/dataset?async=maybe`, [{ urn: NEW, status: { value: { removed: false } } }])).toMatchObject({
      status: 400,
    });
    expect(
      await call('PATCH', `${entityPath(NEW, 'globalTags')}?async=1`, {
        patch: [{ op: 'add', path: '/tags/urn:li:tag:x', value: { tag: 'urn:li:tag:x' } }],
      }),
    ).toMatchObject({ status: 400 });
    expect((await get(entityPath(NEW))).status).toBe(404);
  });

  it('a Reader may read but not write or delete (403, §6.5 and DataHub’s texts), and nothing is written', async () => {
    const NEW = dataset('db.reader_try');
    expect((await get(entityPath(CUSTOMERS), reader)).status).toBe(200);
    const refusals = [
      await call('POST', `${V3}/dataset`, [{ urn: NEW, status: { value: { removed: true } } }], reader),
      await call('POST', entityPath(NEW, 'status'), { value: { removed: true } }, reader),
      await call(
        'PATCH',
        entityPath(NEW, 'globalTags'),
        { patch: [{ op: 'add', path: '/tags/urn:li:tag:x', value: { tag: 'urn:li:tag:x' } }] },
        reader,
      ),
      await call('PATCH', `${V3}/dataset`, [{ urn: NEW, globalTags: { value: { patch: [] } } }], reader),
    ];
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({
        status: 403,
        body: { error: `User urn:li:corpuser:reader is unauthorized to modify entity: HttpStatus: 403 Urn: ${NEW}` },
      });
    }
    expect(await call('DELETE', entityPath(CUSTOMERS), undefined, reader)).toMatchObject({
      status: 403,
      body: { error: 'urn:li:corpuser:reader is unauthorized to DELETE entities.' },
    });
    expect((await get(entityPath(NEW))).status).toBe(404);
    expect((await get(entityPath(CUSTOMERS))).status).toBe(200);
  });
});

describe('deletes', () => {
  it('DELETE an entity removes every aspect, the key included (§3.5); an Editor lacks DELETE_ENTITY', async () => {
    const DOOMED = dataset('db.doomed');
    await upsert(DOOMED, { globalTags: tags('pii') });
    expect(await call('DELETE', entityPath(DOOMED), undefined, editor)).toMatchObject({
      status: 403,
      body: { error: 'urn:li:corpuser:editor is unauthorized to DELETE entities.' },
    });
    expect(await call('DELETE', entityPath(DOOMED))).toEqual(expect.objectContaining({ status: 200, body: undefined }));
    expect((await get(entityPath(DOOMED))).status).toBe(404);
    expect((await get(`/aspects/${enc(DOOMED)}?aspect=globalTags&version=0`)).status).toBe(404);
  });

  it('DELETE of a versioned aspect removes it with every version, its edges and its search terms; clear=true keeps only the key', async () => {
    const KEPT = dataset('db.kept');
    await upsert(KEPT, {
      globalTags: tags('pii'),
      ownership: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }] },
      status: { removed: false },
    });
    await upsert(KEPT, { globalTags: tags('pii', 'gold') });
    const tagged = async () =>
      (
        await mds.post('/entities?action=search', {
          entity: 'dataset',
          input: '*',
          start: 0,
          count: 10,
          filter: { or: [{ and: [{ field: 'tags', value: 'urn:li:tag:pii' }] }] },
        })
      ).body.value.entities.map((e: { entity: string }) => e.entity);
    expect(await tagged()).toContain(KEPT);
    expect(await call('DELETE', entityPath(KEPT, 'globalTags'))).toEqual(expect.objectContaining({ status: 200, body: undefined }));
    expect((await get(entityPath(KEPT, 'globalTags'))).status).toBe(404);
    expect((await get(`/aspects/${enc(KEPT)}?aspect=globalTags&version=1`)).status).toBe(404);
    expect(await tagged()).not.toContain(KEPT);
    const ownedBy = async () =>
      (await get(`/relationships?urn=${enc('urn:li:corpuser:jdoe')}&direction=INCOMING&types=List(OwnedBy)`)).body.relationships;
    expect(await ownedBy()).toContainEqual(expect.objectContaining({ entity: KEPT }));
    expect((await call('DELETE', `${entityPath(KEPT)}?aspects=ownership`)).status).toBe(200);
    expect(await ownedBy()).not.toContainEqual(expect.objectContaining({ entity: KEPT }));
    expect((await call('DELETE', `${entityPath(KEPT)}?clear=true`)).status).toBe(200);
    expect(Object.keys((await get(entityPath(KEPT))).body)).toEqual(['urn', 'datasetKey']);
    expect((await call('DELETE', entityPath(KEPT, 'nosuchAspect'))).status).toBe(404);
    expect((await call('DELETE', entityPath(KEPT, 'datasetKey'))).status).toBe(200);
    expect((await call('HEAD', entityPath(KEPT))).status).toBe(404);
  });

  it('a time-series aspect: written and read as its newest point; DELETE of the aspect removes that point only', async () => {
    const PROFILED = dataset('db.profiled');
    const profile = (t: number) => ({ timestampMillis: t, rowCount: t, columnCount: 2 });
    await upsert(PROFILED, { status: { removed: false } });
    expect((await call('POST', `${entityPath(PROFILED, 'datasetProfile')}?async=false`, { value: profile(1_000) })).status).toBe(200);
    expect((await call('POST', `${V3}/dataset?async=false`, [{ urn: PROFILED, datasetProfile: { value: profile(2_000) } }])).body).toEqual([
      { urn: PROFILED, datasetProfile: { value: profile(2_000) } },
    ]);
    expect((await get(entityPath(PROFILED, 'datasetProfile'))).body.value).toMatchObject(profile(2_000));
    expect((await get(`${entityPath(PROFILED)}?aspects=datasetProfile`)).body.datasetProfile.value).toMatchObject(profile(2_000));
    expect((await call('DELETE', entityPath(PROFILED, 'datasetProfile'))).status).toBe(200);
    expect((await get(entityPath(PROFILED, 'datasetProfile'))).body.value).toMatchObject(profile(1_000));
    expect((await call('DELETE', `${entityPath(PROFILED)}?aspects=datasetProfile`)).status).toBe(200);
    expect((await get(entityPath(PROFILED, 'datasetProfile'))).status).toBe(404);
    expect((await get(entityPath(PROFILED, 'status'))).status).toBe(200);
  });
});

describe('batchGet, list and scroll', () => {
  const PAGED = ['db.page_a', 'db.page_b', 'db.page_c'].map(dataset);

  beforeAll(async () => {
    for (const urn of PAGED) await upsert(urn, { subTypes: { typeNames: ['Table'] } });
    await upsert(PAGED[0]!, { subTypes: { typeNames: ['View'] } });
  });

  it('batchGet: the aspects named (none: all) of each existing urn, unknown urns left out', async () => {
    const answer = await call('POST', `${V3}/dataset/batchGet`, [
      { urn: PAGED[1], subTypes: {} },
      { urn: dataset('db.nowhere') },
      { urn: PAGED[2] },
    ]);
    expect(answer).toMatchObject({ status: 200 });
    expect(answer.body).toEqual([
      { urn: PAGED[1], datasetKey: { value: keyOf('db.page_b') }, subTypes: { value: { typeNames: ['Table'] } } },
      { urn: PAGED[2], datasetKey: { value: keyOf('db.page_c') }, subTypes: { value: { typeNames: ['Table'] } } },
    ]);
    expect(await call('POST', `${V3}/dataset/batchGet`, [{ subTypes: {} }])).toMatchObject({
      status: 400,
      body: { error: 'Missing `urn` field' },
    });
    expect(await call('POST', `${V3}/dataset/batchGet`, [{ urn: PAGED[1], nosuch: {} }])).toMatchObject({
      status: 400,
      body: { error: 'Unknown aspect nosuch for entity dataset' },
    });
  });

  it('batchGet with If-Version-Match in an aspect’s headers answers that version', async () => {
    const answer = await call('POST', `${V3}/dataset/batchGet?systemMetadata=true`, [
      { urn: PAGED[0], subTypes: { headers: { 'If-Version-Match': '1' } } },
    ]);
    expect(answer.body[0].subTypes).toMatchObject({ value: { typeNames: ['Table'] }, systemMetadata: { version: '1' } });
    const latest = await call('POST', `${V3}/dataset/batchGet`, [{ urn: PAGED[0], subTypes: { headers: { 'If-Version-Match': '2' } } }]);
    expect(latest.body[0].subTypes).toEqual({ value: { typeNames: ['View'] } });
  });

  it('GET the entity list pages with an opaque scrollId, absent on the last page', async () => {
    const first = await get(`${V3}/dataset?count=2&query=page&aspects=subTypes`);
    expect(first.status).toBe(200);
    expect(first.body.entities.map((e: any) => e.urn)).toEqual(PAGED.slice(0, 2));
    expect(first.body.entities[1]).toEqual({
      urn: PAGED[1],
      datasetKey: { value: keyOf('db.page_b') },
      subTypes: { value: { typeNames: ['Table'] } },
    });
    expect(first.body.scrollId).toEqual(expect.any(String));
    const second = await get(`${V3}/dataset?count=2&query=page&aspects=subTypes&scrollId=${enc(first.body.scrollId)}`);
    expect(second.body.entities.map((e: any) => e.urn)).toEqual(PAGED.slice(2));
    expect(second.body.scrollId).toBeUndefined();
    const descending = await get(`${V3}/dataset?count=3&query=page&sortCriteria=urn&sortOrder=DESCENDING`);
    expect(descending.body.entities.map((e: any) => e.urn)).toEqual([...PAGED].reverse());
    expect(await get(`${V3}/dataset?query=other&scrollId=${enc(first.body.scrollId)}`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Invalid scrollId') },
    });
    expect(await get(`${V3}/dataset?sortCriteria=description`)).toMatchObject({
      status: 400,
      body: { error: 'Cannot sort by description: sort by one of urn, name' },
    });
    expect(await get(`${V3}/dataset?count=-1`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("Parameter 'count'") },
    });
  });

  it('POST /scroll across the entity types named, with the aspects named where an entity has them', async () => {
    const answer = await call('POST', `${V3}/scroll?count=10&query=page`, {
      entities: ['dataset', 'corpuser'],
      aspects: ['subTypes', 'corpUserInfo'],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.entities.map((e: any) => e.urn)).toEqual(PAGED);
    expect(answer.body.entities[2]).toEqual({
      urn: PAGED[2],
      datasetKey: { value: keyOf('db.page_c') },
      subTypes: { value: { typeNames: ['Table'] } },
    });
    expect(await call('POST', `${V3}/scroll`, { entities: ['nosuch'] })).toMatchObject({
      status: 400,
      body: { error: 'Unknown entity: nosuch' },
    });
    expect(await call('POST', `${V3}/scroll`, { aspects: ['nosuch'] })).toMatchObject({
      status: 400,
      body: { error: 'Unknown aspect nosuch' },
    });
    expect(await call('POST', `${V3}/scroll`, [])).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('must be a JSON object') },
    });
  });
});

describe('the same aspects over OpenAPI, Rest.li and GraphQL', () => {
  const SHARED = dataset('db.shared');
  const properties = { description: 'orders of customers', customProperties: { owner: 'sales' }, name: 'shared' };

  it('an aspect written over OpenAPI reads back equal over GET /aspects (version 0) and /entitiesV2', async () => {
    await call('POST', `${V3}/dataset?async=false`, [{ urn: SHARED, datasetProperties: { value: properties } }]);
    const openapi = (await get(`${entityPath(SHARED, 'datasetProperties')}?systemMetadata=true`)).body;
    const restli = await get(`/aspects/${enc(SHARED)}?aspect=datasetProperties&version=0`);
    expect(restli.body).toEqual({ aspect: { 'com.linkedin.dataset.DatasetProperties': openapi.value }, version: 0 });
    const v2 = (await get(`/entitiesV2/${enc(SHARED)}`)).body;
    expect(v2.aspects.datasetProperties.value).toEqual(openapi.value);
    expect(v2.aspects.datasetProperties.systemMetadata).toEqual(openapi.systemMetadata);
    expect(v2.aspects.datasetKey.value).toEqual((await get(entityPath(SHARED))).body.datasetKey.value);
  });

  it('an aspect ingested with ingestProposal reads back equal over OpenAPI', async () => {
    const owners = { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] };
    const proposal = {
      entityType: 'dataset',
      entityUrn: SHARED,
      changeType: 'UPSERT',
      aspectName: 'ownership',
      aspect: { contentType: 'application/json', value: JSON.stringify(owners) },
      systemMetadata: { lastObserved: 1_700_000_000_000, runId: 'restli-run' },
    };
    expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);
    const openapi = (await get(`${entityPath(SHARED, 'ownership')}?systemMetadata=true`)).body;
    expect(openapi.value).toEqual(owners);
    expect(openapi.systemMetadata).toMatchObject({ runId: 'restli-run', lastObserved: 1_700_000_000_000 });
    expect(openapi.systemMetadata).toEqual(
      (await get(`/entitiesV2/${enc(SHARED)}?aspects=List(ownership)`)).body.aspects.ownership.systemMetadata,
    );
  });
  it('an aspect written over OpenAPI (the typed client) reads back equal over GraphQL dataset(urn)', async () => {
    const api = createOpenApiClient({ baseUrl: mds.url, token: mds.rootToken });
    const urn = dataset('db.graphql_reads');
    const written = await api.POST('/openapi/v3/entity/dataset/{urn}/datasetProperties', {
      params: { path: { urn }, query: { createIfNotExists: false } },
      body: { value: { name: 'graphql_reads', description: 'read by GraphQL', customProperties: { team: 'sales', tier: 'gold' } } },
    });
    expect(written.response.status).toBe(200);
    await api.POST('/openapi/v3/entity/dataset/{urn}/globalTags', { params: { path: { urn } }, body: { value: tags('pii', 'gold') } });
    const stored = (
      await api.GET('/openapi/v3/entity/dataset/{urn}', {
        params: { path: { urn }, query: { aspects: ['datasetProperties', 'globalTags'] } },
      })
    ).data!;
    const { body } = await mds.graphql(
      'query($urn: String!) { dataset(urn: $urn) { properties { name description customProperties { key value } } tags { tags { tag { urn } } } } }',
      { urn },
    );
    const { properties, tags: graphqlTags } = body.data.dataset;
    const value = stored.datasetProperties!.value;
    expect({
      name: properties.name,
      description: properties.description,
      customProperties: Object.fromEntries(properties.customProperties.map((e: any) => [e.key, e.value])),
    }).toEqual({
      name: value.name,
      description: value.description,
      customProperties: value.customProperties,
    });
    expect(graphqlTags.tags.map((t: any) => t.tag.urn)).toEqual(stored.globalTags!.value.tags.map((t) => t.tag));
  });

  it('an aspect written over GraphQL (updateDescription) reads back equal over OpenAPI, GET /aspects and /entitiesV2', async () => {
    const api = createOpenApiClient({ baseUrl: mds.url, token: mds.rootToken });
    const urn = dataset('db.graphql_writes');
    await api.POST('/openapi/v3/entity/dataset/{urn}/status', { params: { path: { urn } }, body: { value: { removed: false } } });
    const { body } = await mds.graphql('mutation($input: DescriptionUpdateInput!) { updateDescription(input: $input) }', {
      input: { resourceUrn: urn, description: 'written by GraphQL' },
    });
    expect(body).toEqual({ data: { updateDescription: true } });
    const openapi = (
      await api.GET('/openapi/v3/entity/dataset/{urn}/editableDatasetProperties', {
        params: { path: { urn }, query: { systemMetadata: true } },
      })
    ).data!;
    expect(openapi.value.description).toBe('written by GraphQL');
    expect((await get(`/aspects/${enc(urn)}?aspect=editableDatasetProperties&version=0`)).body.aspect).toEqual({
      'com.linkedin.dataset.EditableDatasetProperties': openapi.value,
    });
    const v2 = (await get(`/entitiesV2/${enc(urn)}?aspects=List(editableDatasetProperties)`)).body.aspects.editableDatasetProperties;
    expect({ value: v2.value, systemMetadata: v2.systemMetadata }).toEqual({
      value: openapi.value,
      systemMetadata: openapi.systemMetadata,
    });
  });
});

describe("v1 calls (DataHub's usage guide; the guide itself is replayed in openapi-usage-guide.test.ts)", () => {
  const V1 = '/openapi/entities/v1/';
  const TARGET = dataset('db.v1_target');
  const item = (urn: string, aspect: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    entityType: 'dataset',
    entityUrn: urn,
    aspect,
    ...extra,
  });

  it('refuses what it cannot take with a 4xx naming the problem, writing nothing', async () => {
    expect(await call('POST', V1, [{ entityUrn: TARGET, aspect: { __type: 'Status', removed: true } }])).toMatchObject({
      status: 400,
      body: { error: 'Item 0: entityType must be a string' },
    });
    expect(await call('POST', V1, [item(TARGET, { __type: 'NoSuchAspect' })])).toMatchObject({
      status: 400,
      body: { error: 'Item 0: aspectName is missing and aspect.__type (NoSuchAspect) names no aspect of dataset' },
    });
    expect(await call('POST', V1, [{ ...item(TARGET, { removed: true }), entityType: 'nosuch' }])).toMatchObject({
      status: 422,
      body: { error: 'Unknown entity: nosuch' },
    });
    expect(await call('POST', V1, [item('urn:li:corpuser:x', { __type: 'Status', removed: true })])).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('Invalid urn!') },
    });
    expect(
      await call('POST', V1, [
        item(TARGET, { __type: 'Status', removed: true }),
        item(TARGET, { __type: 'SchemaMetadata', schemaName: 'x' }),
      ]),
    ).toMatchObject({
      status: 422,
      body: { error: expect.stringContaining('Failed to validate record with class com.linkedin.schema.SchemaMetadata') },
    });
    expect((await get(entityPath(TARGET))).status).toBe(404);
    expect(await get(`${V1}latest`)).toMatchObject({
      status: 400,
      body: { error: "Parameter 'urns' is required: one or more entity URNs" },
    });
    expect(await get(`${V1}latest?urns=${enc(TARGET)}&urns=urn:li:corpuser:x`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('single entity type') },
    });
    expect(await call('DELETE', `${V1}?urns=${enc(TARGET)}&soft=maybe`)).toMatchObject({
      status: 400,
      body: { error: "Parameter 'soft' must be true or false, got: maybe" },
    });
    expect(await get(`/openapi/relationships/v1/?urn=${enc(TARGET)}&relationshipTypes=OwnedBy`)).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining("'direction'") },
    });
  });

  it('a Reader reads over v1 but may not write or delete (403, nothing written); without a token, 401', async () => {
    expect((await call('POST', `${V1}?async=false`, [item(TARGET, { __type: 'Status', removed: false })])).status).toBe(200);
    expect(await call('POST', V1, [item(TARGET, { __type: 'Status', removed: true })], reader)).toMatchObject({
      status: 403,
      body: { error: `User urn:li:corpuser:reader is unauthorized to modify entity: HttpStatus: 403 Urn: ${TARGET}` },
    });
    expect(await call('DELETE', `${V1}?urns=${enc(TARGET)}&soft=false`, undefined, reader)).toMatchObject({
      status: 403,
      body: { error: 'urn:li:corpuser:reader is unauthorized to DELETE entities.' },
    });
    expect((await get(`${V1}latest?urns=${enc(TARGET)}`, reader)).body.responses[TARGET].aspects.status.value).toEqual({
      __type: 'Status',
      removed: false,
    });
    expect((await get(`${V1}latest?urns=${enc(TARGET)}`, null)).status).toBe(401);
  });

  it('DELETE soft=false removes the entity; an absent urn is answered with nothing deleted', async () => {
    const gone = dataset('db.v1_gone');
    expect(await call('DELETE', `${V1}?urns=${enc(TARGET)}&urns=${enc(gone)}&soft=false`)).toMatchObject({
      status: 200,
      body: [
        { rowsRolledBack: [{ urn: TARGET }], rowsDeletedFromEntityDeletion: 1 },
        { rowsRolledBack: [], rowsDeletedFromEntityDeletion: 0 },
      ],
    });
    expect((await get(entityPath(TARGET))).status).toBe(404);
  });
});

describe('/openapi/v3/api-docs', () => {
  // The document covers DataHub's 61 entity types (3 MB of JSON, 4 MB of YAML): building it takes seconds under load.
  it('serves the generated document as JSON, the same bytes each time (built once), and as YAML', { timeout: 120_000 }, async () => {
    const first = await fetch(`${mds.url}/openapi/v3/api-docs`, { headers: { authorization: `Bearer ${mds.rootToken}` } });
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await first.text();
    const document = JSON.parse(text);
    expect(document).toMatchObject({
      openapi: '3.0.3',
      components: { schemas: { GlobalTags: { title: 'com.linkedin.common.GlobalTags' } } },
    });
    expect(document.paths['/openapi/v3/entity/dataset/{urn}/globalTags']).toBeDefined();
    expect(
      await (await fetch(`${mds.url}/api/gms/openapi/v3/api-docs`, { headers: { authorization: `Bearer ${mds.rootToken}` } })).text(),
    ).toBe(text);
    const yaml = await fetch(`${mds.url}/openapi/v3/api-docs.yaml`, { headers: { authorization: `Bearer ${mds.rootToken}` } });
    expect(yaml.headers.get('content-type')).toBe('application/yaml; charset=utf-8');
    expect(await yaml.text()).toMatch(/^openapi: 3\.0\.3\n/);
  });

  it(
    'describes only what is served: every operation of the document is routed (time-series operation and v1 calls included)',
    { timeout: 120_000 },
    async () => {
      const document = (await get('/openapi/v3/api-docs')).body;
      const absent = dataset('db.never_there');
      const operations = Object.entries<Record<string, unknown>>(document.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => key !== 'parameters')
          .map((method) => [method.toUpperCase(), path.replace('{urn}', enc(absent))] as const),
      );
      expect(operations.map(([, path]) => path)).toContain('/openapi/operations/elasticSearch/getIndexSizes');
      const unrouted: string[] = [];
      for (const [method, path] of operations) {
        const { status, body } = await call(method, path);
        if (status === 405 || (status === 404 && String(body?.message ?? '').startsWith('No route'))) unrouted.push(`${method} ${path}`);
      }
      expect(unrouted).toEqual([]);
      expect((await get(entityPath(absent))).status).toBe(404);
    },
  );
});
