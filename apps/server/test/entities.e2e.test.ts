import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

// entities-api §6-7 over HTTP: what DataHub's emitter sends, what its clients read back. Test titles name the
// conformance line (§12) they prove.
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const enc = encodeURIComponent;

const mcp = (aspectName: string, value: unknown, more: Record<string, unknown> = {}) => ({
  entityType: 'dataset',
  entityUrn: ORDERS,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  systemMetadata: { lastObserved: 1_700_000_000_000, runId: 'hive-run-1' },
  ...more,
});
const patchMcp = (aspectName: string, patch: unknown, urn = ORDERS) =>
  mcp(aspectName, patch, {
    entityUrn: urn,
    changeType: 'PATCH',
    aspect: { contentType: 'application/json-patch+json', value: JSON.stringify(patch) },
  });
const tags = (...names: string[]) => ({ tags: names.map((name) => ({ tag: `urn:li:tag:${name}` })) });
const RESTLI_ERROR = 'com.linkedin.restli.server.RestLiServiceException';

let mds: Mds;
let editor: string;
let reader: string;
const ingest = (proposal: unknown, token?: string) => mds.post('/aspects?action=ingestProposal', { proposal, async: 'false' }, token);
const batch = (proposals: unknown[], token?: string) => mds.post('/aspects?action=ingestProposalBatch', { proposals }, token);
const get = (path: string, token = mds.rootToken) => mds.clientFor(token).get(path);
const aspect = (urn: string, name: string, version = 0) => get(`/aspects/${enc(urn)}?aspect=${name}&version=${version}`);

beforeAll(async () => {
  mds = await startMds();
  // Its refusals are of callers lacking a privilege: DataHub's default policies for all users are deactivated.
  await mds.withoutAllUsersPolicies();
  editor = await mds.tokenFor('urn:li:corpuser:editor', 'urn:li:dataHubRole:Editor');
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

describe('ingestProposal and reads', () => {
  it('§12.9 answers the entity urn; §12.1/§12.5 stores v0 with version "1" and the key built from the urn', async () => {
    expect(await ingest(mcp('globalTags', tags('pii')))).toEqual({ status: 200, body: { value: ORDERS } });
    const { body } = await get(`/entitiesV2/${enc(ORDERS)}`);
    expect(body.entityName).toBe('dataset');
    expect(body.aspects.datasetKey.value).toEqual({ platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' });
    expect(body.aspects.globalTags).toMatchObject({
      name: 'globalTags',
      type: 'VERSIONED',
      version: 0,
      value: tags('pii'),
      created: { actor: 'urn:li:corpuser:datahub', time: expect.any(Number) },
      systemMetadata: { lastObserved: 1_700_000_000_000, runId: 'hive-run-1', version: '1' },
    });
  });

  it('§12.8 §12.7 wraps /aspects by PDL class; version 1 is the archived value, -1 the newest archived, absent 404', async () => {
    await ingest(mcp('datasetProperties', { description: 'first', customProperties: {} }));
    await ingest(mcp('datasetProperties', { description: 'second', customProperties: {} }));
    await ingest(mcp('datasetProperties', { description: 'third', customProperties: {} }));
    expect(await aspect(ORDERS, 'datasetProperties')).toEqual({
      status: 200,
      body: { aspect: { 'com.linkedin.dataset.DatasetProperties': { description: 'third', customProperties: {} } }, version: 0 },
    });
    expect((await aspect(ORDERS, 'datasetProperties', 1)).body.aspect['com.linkedin.dataset.DatasetProperties'].description).toBe('first');
    expect((await aspect(ORDERS, 'datasetProperties', -1)).body).toMatchObject({
      version: 2,
      aspect: { 'com.linkedin.dataset.DatasetProperties': { description: 'second' } },
    });
    expect(await aspect(ORDERS, 'datasetProperties', 9)).toEqual({
      status: 404,
      body: { exceptionClass: RESTLI_ERROR, stackTrace: '', status: 404 },
    });
    expect((await aspect(ORDERS, 'datasetKey')).body.aspect['com.linkedin.metadata.key.DatasetKey'].name).toBe('db.orders');
  });

  it('§12.10 async "true" still leaves the aspect readable when the answer arrives', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.async,PROD)';
    expect(
      (await mds.post('/aspects?action=ingestProposal', { proposal: mcp('status', { removed: false }, { entityUrn: urn }), async: 'true' }))
        .status,
    ).toBe(200);
    expect((await aspect(urn, 'status')).body.aspect).toEqual({ 'com.linkedin.common.Status': { removed: false } });
  });

  it('keeps fields the registry does not know, so a round trip returns exactly what was ingested (issue 18 over §12.14)', async () => {
    const value = { description: 'kept', customProperties: { a: 'b' }, somethingNew: { nested: [1, 2] } };
    await ingest(mcp('editableDatasetProperties', value));
    expect((await aspect(ORDERS, 'editableDatasetProperties')).body.aspect['com.linkedin.dataset.EditableDatasetProperties']).toEqual(
      value,
    );
  });

  it('§12.28 §12.29 /entitiesV2 always has the key aspect; the batch form answers results keyed by decoded urn', async () => {
    const unknown = 'urn:li:dataset:(urn:li:dataPlatform:kafka,never.seen,DEV)';
    const one = await get(`/entitiesV2/${enc(unknown)}?aspects=List(globalTags)`);
    expect(one.body).toEqual({
      entityName: 'dataset',
      urn: unknown,
      aspects: {
        datasetKey: {
          name: 'datasetKey',
          type: 'VERSIONED',
          version: 0,
          value: { platform: 'urn:li:dataPlatform:kafka', name: 'never.seen', origin: 'DEV' },
        },
      },
    });
    const { status, body } = await get(`/entitiesV2?ids=List(${enc(ORDERS)},${enc(unknown)})&aspects=List(globalTags)`);
    expect(status).toBe(200);
    expect(Object.keys(body.results)).toEqual([ORDERS, unknown]);
    expect(Object.keys(body.results[ORDERS].aspects).sort()).toEqual(['datasetKey', 'globalTags']);
    expect(body).toMatchObject({ statuses: {}, errors: {} });
  });

  it('§12.30 /entities/{urn} answers the class-wrapped snapshot, and 404 "Did not find" for an unknown urn', async () => {
    const { body } = await get(`/gms/entities/${enc(ORDERS)}`);
    const snapshot = body.value['com.linkedin.metadata.snapshot.DatasetSnapshot'];
    expect(snapshot.urn).toBe(ORDERS);
    expect(snapshot.aspects).toContainEqual({ 'com.linkedin.common.GlobalTags': tags('pii') });
    expect(snapshot.aspects).toContainEqual({
      'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' },
    });
    const missing = 'urn:li:dataset:(urn:li:dataPlatform:hive,nope,PROD)';
    expect(await get(`/entities/${enc(missing)}`)).toEqual({
      status: 404,
      body: { exceptionClass: RESTLI_ERROR, stackTrace: '', message: `Did not find ${missing}`, status: 404 },
    });
  });

  it('§12.20 time-series aspects go to the time-series store and never appear in /aspects', async () => {
    const profile = mcp('datasetProfile', { timestampMillis: 1_700_000_000_000, rowCount: 5 });
    expect((await ingest(profile)).status).toBe(200);
    expect((await aspect(ORDERS, 'datasetProfile')).status).toBe(404);
    const sizes = (await mds.post('/gms/operations?action=getIndexSizes', {})).body.value.indexSizes;
    expect(sizes.map((s: { indexName: string }) => s.indexName)).toContain('dataset_datasetprofileaspect_v1');
    const create = await ingest({ ...profile, changeType: 'CREATE' });
    expect([create.status, create.body.message]).toEqual([
      422,
      'ChangeType CREATE is not supported for time-series aspect datasetProfile: only UPSERT is',
    ]);
  });

  it('echoes the X-RestLi-Protocol-Version header the emitter sends, on /config and every answer after it', async () => {
    for (const path of ['/config', `/aspects/${enc(ORDERS)}?aspect=globalTags&version=0`, `/aspects/${enc(ORDERS)}?aspect=nope`]) {
      const res = await fetch(`${mds.url}${path}`, {
        headers: { authorization: `Bearer ${mds.rootToken}`, 'x-restli-protocol-version': '2.0.0' },
      });
      expect(res.headers.get('x-restli-protocol-version'), path).toBe('2.0.0');
    }
  });
});

describe('write errors of §6.5, with the Rest.li error body (§12.24)', () => {
  const refused = async (proposal: unknown, status: number, message: string | RegExp) => {
    const res = await fetch(`${mds.url}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mds.rootToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ proposal }),
    });
    const body = await res.json();
    expect(res.status).toBe(status);
    expect(res.headers.get('x-restli-error-response')).toBe('true');
    expect(body).toEqual({ exceptionClass: RESTLI_ERROR, stackTrace: '', message: expect.any(String), status });
    if (typeof message === 'string') expect(body.message).toBe(message);
    else expect(body.message).toMatch(message);
  };
  const fresh = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.errors,PROD)';

  it('§12.11 unknown entity type → 422', () => refused(mcp('status', {}, { entityType: 'spaceship' }), 422, 'Unknown entity: spaceship'));
  it('§12.12 an aspect of another entity → 422', () => refused(mcp('chartInfo', {}), 422, 'Unknown aspect chartInfo for entity dataset'));
  it('§12.13 urn type ≠ entityType → 422; the case of entityType is ignored', async () => {
    await refused(
      mcp('status', {}, { entityUrn: 'urn:li:chart:(looker,1)' }),
      422,
      'URN entity type does not match MCP entity type. chart != dataset',
    );
    expect((await ingest(mcp('status', { removed: false }, { entityType: 'DATASET', entityUrn: fresh }))).status).toBe(200);
  });
  it('§12.15 a missing required field → 422 naming the class and the field', () =>
    refused(
      mcp('schemaMetadata', {
        schemaName: 'x',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
        fields: [],
      }),
      422,
      'Failed to validate record with class com.linkedin.schema.SchemaMetadata: \nERROR :: /hash :: field is required but not found and has no default value',
    ));
  it('§12.16 malformed, whitespace-padded and over-long urns → 400', async () => {
    await refused(mcp('status', {}, { entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,a' }), 400, /^Invalid urn: /);
    await refused(mcp('status', {}, { entityUrn: ` ${ORDERS}` }), 400, 'Error: cannot provide an URN with leading or trailing whitespace');
    await refused(
      mcp('status', {}, { entityUrn: `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(600)},PROD)` }),
      400,
      'Error: cannot provide an URN longer than 512 bytes (when URL encoded)',
    );
    await refused(
      mcp('status', {}, { entityUrn: 'urn:li:dataset:onlyonepart' }),
      400,
      'Failed to convert urn to entity key: urns parts and key fields do not have same length',
    );
    await refused(mcp('status', {}, { entityUrn: 'urn:li:tag:a\uD800' }), 400, /^Invalid urn: .* lone surrogate/s);
    // A job's flow is a data flow urn (DataHub's DataJobUrn), not any text.
    await refused(
      mcp('status', {}, { entityType: 'dataJob', entityUrn: 'urn:li:dataJob:(a,b)' }),
      400,
      /its flow must be a dataFlow urn, not 'a'/,
    );
  });
  it('§12.17 aspect.json over Rest.li → 400', () =>
    refused({ ...mcp('status', {}), aspect: { json: { removed: false } } }, 400, 'Field "value" is required but it is not present'));
  it('a value that is not JSON → 400; aspectName missing → 400; DELETE → 400', async () => {
    await refused({ ...mcp('status', {}), aspect: { value: '{"removed":' } }, 400, 'Failed to parse aspect value');
    await refused({ ...mcp('status', {}), aspectName: undefined }, 400, 'Aspect name is required for create and update operations');
    await refused({ ...mcp('status', {}), changeType: 'DELETE' }, 400, 'ChangeType not supported: [DELETE]');
  });
  it('§12.18 §12.19 CREATE and CREATE_ENTITY refuse what exists, silently with If-None-Match: *', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.create,PROD)';
    expect((await ingest(mcp('status', { removed: false }, { entityUrn: urn, changeType: 'CREATE' }))).status).toBe(200);
    await refused(
      mcp('status', { removed: true }, { entityUrn: urn, changeType: 'CREATE' }),
      422,
      'Cannot perform CREATE since the aspect already exists.',
    );
    await refused(
      mcp('globalTags', tags('x'), { entityUrn: urn, changeType: 'CREATE_ENTITY' }),
      422,
      'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.',
    );
    const quiet = mcp('status', { removed: true }, { entityUrn: urn, changeType: 'CREATE', headers: { 'If-None-Match': '*' } });
    expect((await ingest(quiet)).status).toBe(200);
    expect((await aspect(urn, 'status')).body.aspect['com.linkedin.common.Status']).toEqual({ removed: false });
  });
  it('If-Version-Match refuses a stale write with 422 and writes nothing', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.versioned,PROD)';
    await ingest(mcp('status', { removed: false }, { entityUrn: urn }));
    await refused(
      mcp('status', { removed: true }, { entityUrn: urn, headers: { 'If-Version-Match': '7' } }),
      422,
      /^Expected version 7 of aspect status/,
    );
    expect((await ingest(mcp('status', { removed: true }, { entityUrn: urn, headers: { 'If-Version-Match': '1' } }))).status).toBe(200);
  });
  it('§12.25 a Reader may not write: 403 with DataHub text, nothing written', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.reader,PROD)';
    const res = await ingest(mcp('status', { removed: false }, { entityUrn: urn }), reader);
    expect(res).toEqual({
      status: 403,
      body: {
        exceptionClass: RESTLI_ERROR,
        stackTrace: '',
        status: 403,
        message: `User urn:li:corpuser:reader is unauthorized to modify entity: HttpStatus: 403 Urn: ${urn}`,
      },
    });
    expect((await aspect(urn, 'status')).status).toBe(404);
    expect((await ingest(mcp('status', { removed: false }, { entityUrn: urn }), editor)).status).toBe(200);
    expect((await get(`/entitiesV2/${enc(urn)}`, reader)).status).toBe(200);
  });
});

describe('ingestProposalBatch', () => {
  it('is all or nothing: one bad item answers its error, naming it, and writes none', async () => {
    const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.batch_${i},PROD)`;
    const proposals = [0, 1, 2].map((i) => mcp('status', { removed: false }, { entityUrn: urn(i) }));
    proposals.push(mcp('chartInfo', {}, { entityUrn: urn(3) }));
    const { status, body } = await batch(proposals);
    expect([status, body.message]).toEqual([422, 'proposals.3: Unknown aspect chartInfo for entity dataset']);
    expect((await aspect(urn(0), 'status')).status).toBe(404);
    expect(await batch(proposals.slice(0, 3))).toEqual({ status: 200, body: { value: 'success' } });
    expect((await aspect(urn(2), 'status')).status).toBe(200);
  });

  it('mixes versioned and time-series items; a bad time-series item fails the batch too', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.mixed,PROD)';
    const good = [
      mcp('status', { removed: false }, { entityUrn: urn }),
      mcp('datasetProfile', { timestampMillis: 1, rowCount: 1 }, { entityUrn: urn }),
    ];
    const bad = mcp('datasetProfile', { rowCount: 2 }, { entityUrn: urn });
    const refused = await batch([...good, bad]);
    expect([refused.status, refused.body.message]).toEqual([
      400,
      "Parameter 'proposals.2.aspect.value' of action 'ingestProposalBatch': has no timestampMillis (every time-series aspect value needs one)",
    ]);
    expect((await aspect(urn, 'status')).status).toBe(404);
    expect((await batch(good)).status).toBe(200);
    expect((await aspect(urn, 'status')).status).toBe(200);
  });
});

describe('PATCH (§6.6)', () => {
  const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.patched,PROD)';
  const value = async (name: string) => Object.values((await aspect(urn, name)).body.aspect)[0];

  it('§12.21 add /tags/<urn> creates globalTags; repeating it changes nothing', async () => {
    const add = patchMcp('globalTags', [{ op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }], urn);
    expect((await ingest(add)).status).toBe(200);
    expect(await value('globalTags')).toEqual(tags('pii'));
    await ingest(add);
    expect((await aspect(urn, 'globalTags', 1)).status).toBe(404);
  });

  it('§12.22 /owners/<owner>/<TYPE> adds one edge; remove /owners/<owner> drops all of them', async () => {
    const owner = 'urn:li:corpuser:jdoe';
    await ingest(
      patchMcp(
        'ownership',
        [
          { op: 'add', path: `/owners/${owner}/TECHNICAL_OWNER`, value: { owner, type: 'TECHNICAL_OWNER' } },
          { op: 'add', path: `/owners/${owner}/BUSINESS_OWNER`, value: { owner, type: 'BUSINESS_OWNER' } },
        ],
        urn,
      ),
    );
    expect(((await value('ownership')) as { owners: unknown[] }).owners).toHaveLength(2);
    await ingest(patchMcp('ownership', [{ op: 'remove', path: `/owners/${owner}` }], urn));
    expect(((await value('ownership')) as { owners: unknown[] }).owners).toEqual([]);
  });

  // §12.23 names status for the 422, but DataHub 1.x patches status (StatusTemplate) and its sources emit such
  // patches (the kafka golden file): an aspect without a template is refused instead.
  it('§12.23 /customProperties/<k> keeps the other keys; PATCH on an aspect without a template → 422', async () => {
    await ingest(mcp('datasetProperties', { customProperties: { a: '1' }, description: 'd' }, { entityUrn: urn }));
    await ingest(patchMcp('datasetProperties', [{ op: 'add', path: '/customProperties/b', value: '2' }], urn));
    expect(await value('datasetProperties')).toEqual({ customProperties: { a: '1', b: '2' }, description: 'd' });
    const res = await ingest(patchMcp('subTypes', [{ op: 'add', path: '/typeNames/0', value: 'View' }], urn));
    expect([res.status, res.body.message]).toEqual([422, 'Aspect: subTypes does not currently support patch operations.']);
  });
});

describe('MCE ingestion (§6.8)', () => {
  const snapshot = (urn: string) => ({
    value: {
      'com.linkedin.metadata.snapshot.DatasetSnapshot': {
        urn,
        aspects: [
          {
            'com.linkedin.common.Ownership': {
              owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
              lastModified: { time: 0, actor: 'urn:li:corpuser:jdoe' },
            },
          },
          { 'com.linkedin.common.Status': { removed: false } },
        ],
      },
    },
  });

  it('§12.26 ingest writes every aspect and answers an empty 200; batchIngest with mismatched lengths → 412', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.mce,PROD)';
    const res = await fetch(`${mds.url}/entities?action=ingest`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mds.rootToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entity: snapshot(urn), systemMetadata: { lastObserved: 1, runId: 'r1' } }),
    });
    expect([res.status, await res.text()]).toEqual([200, '']);
    expect((await aspect(urn, 'ownership')).body.aspect['com.linkedin.common.Ownership'].owners[0].owner).toBe('urn:li:corpuser:jdoe');
    expect((await aspect(urn, 'status')).status).toBe(200);
    const mismatch = await mds.post('/entities?action=batchIngest', { entities: [snapshot(urn)], systemMetadata: [] });
    expect([mismatch.status, mismatch.body.message]).toEqual([412, 'entities and systemMetadata length must match']);
    const two = await mds.post('/entities?action=batchIngest', {
      entities: [snapshot(`${urn}2`.replace(',PROD)2', '2,PROD)')), snapshot(urn)],
      systemMetadata: [{ runId: 'a' }, { runId: 'b' }],
    });
    expect(two.status).toBe(200);
  });
});

describe('/entities actions (§7.4)', () => {
  it('§12.33 exists is true for soft-deleted entities unless includeSoftDelete is false', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.soft,PROD)';
    const exists = async (body: Record<string, unknown>) => (await mds.post('/entities?action=exists', { urn, ...body })).body.value;
    expect(await exists({})).toBe(false);
    await ingest(mcp('status', { removed: true }, { entityUrn: urn }));
    expect(await exists({})).toBe(true);
    expect(await exists({ includeSoftDelete: false })).toBe(false);
  });

  it('§12.31 §12.32 delete removes every version and every time-series point and reports both; a versioned aspectName → 400', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.deleted,PROD)';
    await ingest(mcp('status', { removed: false }, { entityUrn: urn }));
    await ingest(mcp('status', { removed: true }, { entityUrn: urn }));
    const notVersioned = await mds.post('/entities?action=delete', { urn, aspectName: 'status' });
    expect([notVersioned.status, notVersioned.body.message]).toEqual([400, 'Not supported for non-timeseries aspect status.']);
    const editorDelete = await mds.post('/entities?action=delete', { urn }, editor);
    expect([editorDelete.status, editorDelete.body.message]).toEqual([403, `User is unauthorized to delete entity: ${urn}`]);
    const profile = (t: number) => mcp('datasetProfile', { timestampMillis: t, rowCount: t }, { entityUrn: urn });
    await batch([profile(1_000), profile(2_000), profile(3_000)]);
    const points = async () =>
      (
        await mds.post('/aspects?action=getTimeseriesAspectValues', { urn, entity: 'dataset', aspect: 'datasetProfile' })
      ).body.value.values.map((v: { aspect: { value: string } }) => JSON.parse(v.aspect.value).timestampMillis);
    expect(await points()).toEqual([3_000, 2_000, 1_000]);
    // A time-series aspect's points alone, in a window: the aspects stay.
    expect((await mds.post('/entities?action=delete', { urn, aspectName: 'datasetProfile', startTimeMillis: 2_500 })).body).toEqual({
      value: { urn, timeseriesRows: 1 },
    });
    expect(await points()).toEqual([2_000, 1_000]);
    expect((await aspect(urn, 'status')).status).toBe(200);
    expect(await mds.post('/entities?action=delete', { urn })).toEqual({
      status: 200,
      body: { value: { urn, rows: 3, timeseriesRows: 2 } },
    });
    expect(await points()).toEqual([]);
    expect((await aspect(urn, 'status')).status).toBe(404);
    expect((await mds.post('/entities?action=delete', { urn })).body.value).toEqual({ urn, rows: 0, timeseriesRows: 0 });
  });
});

describe('getTimeseriesAspectValues (§7.5)', () => {
  it('answers one entity’s points newest first, in DataHub’s envelope, and the latest alone', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.profiled,PROD)';
    const profile = (t: number) =>
      mcp(
        'datasetProfile',
        { timestampMillis: t, rowCount: t / 1000 },
        { entityUrn: urn, systemMetadata: { runId: `run-${t}`, lastObserved: t } },
      );
    expect((await batch([profile(1_000), profile(3_000), profile(2_000)])).status).toBe(200);
    const values = (body: Record<string, unknown>, token?: string) =>
      mds.post('/aspects?action=getTimeseriesAspectValues', { urn, entity: 'dataset', aspect: 'datasetProfile', ...body }, token);
    const { status, body } = await values({ startTimeMillis: 1_500 });
    expect(status).toBe(200);
    expect(body.value).toEqual({
      entityName: 'dataset',
      aspectName: 'datasetProfile',
      limit: 10_000,
      startTimeMillis: 1_500,
      values: [
        {
          aspect: { value: JSON.stringify({ timestampMillis: 3_000, rowCount: 3 }), contentType: 'application/json' },
          systemMetadata: { runId: 'run-3000', lastObserved: 3_000 },
        },
        {
          aspect: { value: JSON.stringify({ timestampMillis: 2_000, rowCount: 2 }), contentType: 'application/json' },
          systemMetadata: { runId: 'run-2000', lastObserved: 2_000 },
        },
      ],
    });
    expect((await values({ latestValue: true })).body.value.values).toHaveLength(1);
    // /entitiesV2 answers a time-series aspect named explicitly with its newest point, and leaves it out otherwise.
    const named = (await get(`/entitiesV2/${enc(urn)}?aspects=List(datasetProfile)`)).body.aspects;
    expect(named.datasetProfile).toEqual({
      name: 'datasetProfile',
      type: 'TIMESERIES',
      value: { timestampMillis: 3_000, rowCount: 3 },
      timestamp: 3_000,
      systemMetadata: { runId: 'run-3000', lastObserved: 3_000 },
    });
    expect((await get(`/entitiesV2/${enc(urn)}`)).body.aspects.datasetProfile).toBeUndefined();
    const batched = (await get(`/entitiesV2?ids=List(${enc(urn)})&aspects=List(datasetProfile)`)).body.results[urn].aspects;
    expect(batched.datasetProfile.timestamp).toBe(3_000);
    const unknown = await values({ aspect: 'schemaMetadata' });
    expect([unknown.status, unknown.body.message]).toEqual([400, 'Unknown aspect schemaMetadata for entity dataset']);
    const noRole = await mds.tokenFor('urn:li:corpuser:nobody-ts', null);
    expect((await values({}, noRole)).body.message).toBe(`User is unauthorized to get timeseries aspect for ${urn}`);
  });
});

describe('GET /relationships (§7.6)', () => {
  const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_etl,prod),load_orders)';
  const raw = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.raw_orders,PROD)';
  const clean = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.clean_orders,PROD)';
  const relationships = (query: string, token = mds.rootToken) => get(`/relationships?${query}`, token);

  beforeAll(async () => {
    await ingest(
      mcp(
        'upstreamLineage',
        { upstreams: [{ dataset: raw, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' } }] },
        { entityUrn: clean },
      ),
    );
    await ingest(
      mcp(
        'ownership',
        {
          owners: [
            { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' },
            { owner: 'urn:li:corpGroup:data-eng', type: 'TECHNICAL_OWNER' },
          ],
        },
        { entityUrn: clean },
      ),
    );
    await ingest(mcp('globalTags', tags('pii'), { entityUrn: clean }));
    await ingest({
      ...mcp('dataJobInputOutput', { inputDatasets: [raw], outputDatasets: [clean] }),
      entityType: 'dataJob',
      entityUrn: job,
    });
  });

  it('answers the outgoing edges of an entity, of the types asked', async () => {
    const { status, body } = await relationships(`urn=${enc(clean)}&types=List(OwnedBy,TaggedWith)&direction=OUTGOING`);
    expect(status).toBe(200);
    expect(body).toEqual({
      start: 0,
      count: 3,
      total: 3,
      relationships: [
        { type: 'OwnedBy', entity: 'urn:li:corpGroup:data-eng' },
        { type: 'OwnedBy', entity: 'urn:li:corpuser:jdoe' },
        { type: 'TaggedWith', entity: 'urn:li:tag:pii' },
      ],
    });
  });

  it('answers the incoming edges, paged, with the true total', async () => {
    const all = await relationships(`urn=${enc(raw)}&direction=INCOMING`);
    expect(all.body.relationships).toEqual([
      { type: 'Consumes', entity: job },
      { type: 'DownstreamOf', entity: clean },
    ]);
    const page = await relationships(`urn=${enc(raw)}&direction=INCOMING&start=1&count=1`);
    expect(page.body).toEqual({ start: 1, count: 1, total: 2, relationships: [{ type: 'DownstreamOf', entity: clean }] });
    expect((await relationships(`urn=${enc(clean)}&types=List(Produces)&direction=INCOMING`)).body.relationships).toEqual([
      { type: 'Produces', entity: job },
    ]);
  });

  it('follows the latest value: an edge removed from the aspect is gone, a hard delete drops them all', async () => {
    await ingest(mcp('globalTags', tags('gold'), { entityUrn: clean }));
    expect((await relationships(`urn=${enc(clean)}&types=List(TaggedWith)`)).body.relationships).toEqual([
      { type: 'TaggedWith', entity: 'urn:li:tag:gold' },
    ]);
    await mds.post('/entities?action=delete', { urn: job });
    expect((await relationships(`urn=${enc(raw)}&direction=INCOMING`)).body.relationships).toEqual([
      { type: 'DownstreamOf', entity: clean },
    ]);
  });

  it('refuses unknown types and directions with 400, and needs VIEW_ENTITY_PAGE', async () => {
    const bad = await relationships(`urn=${enc(clean)}&types=List(Likes)`);
    // The known types are every relationship name of DataHub's model, sorted.
    expect([bad.status, bad.body.message]).toEqual([
      400,
      expect.stringMatching(/^Unknown relationship type\(s\) Likes; known: ActiveIncidents, /),
    ]);
    expect(bad.body.message).toContain(', DownstreamOf, ');
    expect((await relationships(`urn=${enc(clean)}&direction=SIDEWAYS`)).status).toBe(400);
    const noRole = await mds.tokenFor('urn:li:corpuser:nobody', null);
    expect(await relationships(`urn=${enc(clean)}`, noRole)).toEqual({
      status: 403,
      body: { exceptionClass: RESTLI_ERROR, stackTrace: '', status: 403, message: `User is unauthorized to get entity lineage: ${clean}` },
    });
  });
});

describe('/entities search actions (§7.4)', () => {
  const ds = (name: string, platform = 'hive') => `urn:li:dataset:(urn:li:dataPlatform:${platform},shop.${name},PROD)`;
  const action = (name: string, body: unknown, token?: string) => mds.post(`/entities?action=${name}`, body, token);

  beforeAll(async () => {
    const proposals = [
      mcp(
        'datasetProperties',
        { name: 'shop_orders', description: 'Every order of the shop', customProperties: {} },
        { entityUrn: ds('orders') },
      ),
      mcp('globalTags', tags('pii'), { entityUrn: ds('orders') }),
      mcp('browsePaths', { paths: ['/prod/hive/shop'] }, { entityUrn: ds('orders') }),
      mcp(
        'datasetProperties',
        { name: 'shop_order_lines', description: 'Lines of each order', customProperties: {} },
        { entityUrn: ds('order_lines') },
      ),
      mcp('browsePaths', { paths: ['/prod/hive/shop'] }, { entityUrn: ds('order_lines') }),
      mcp(
        'datasetProperties',
        { name: 'shop_clicks', description: 'Click stream', customProperties: {} },
        { entityUrn: ds('clicks', 'kafka') },
      ),
      mcp('browsePaths', { paths: ['/prod/kafka'] }, { entityUrn: ds('clicks', 'kafka') }),
      mcp(
        'datasetProperties',
        { name: 'shop_returns', description: 'Returned orders', customProperties: {} },
        { entityUrn: ds('returns') },
      ),
      mcp('status', { removed: true }, { entityUrn: ds('returns') }),
    ];
    expect((await batch(proposals)).status).toBe(200);
  });

  it('search finds by words in name and description, with facets and the total, in DataHub’s SearchResult shape', async () => {
    const { status, body } = await action('search', { entity: 'dataset', input: 'shop order', start: 0, count: 1 });
    expect(status).toBe(200);
    expect(body.value).toMatchObject({
      from: 0,
      pageSize: 1,
      numEntities: 2,
      entities: [{ entity: expect.stringMatching(/shop\.order/) }],
    });
    const platform = body.value.metadata.aggregations.find((a: { name: string }) => a.name === 'platform');
    expect(platform).toEqual({
      name: 'platform',
      displayName: 'Platform',
      aggregations: { 'urn:li:dataPlatform:hive': 2 },
      filterValues: [{ value: 'urn:li:dataPlatform:hive', facetCount: 2, filtered: false }],
    });
  });

  it('§12.34 soft-deleted entities vanish from search, searchAcrossEntities, list and autocomplete unless asked for', async () => {
    const returns = ds('returns');
    const found = async (name: string, body: Record<string, unknown>) =>
      JSON.stringify((await action(name, body)).body.value).includes(returns);
    expect(await found('search', { entity: 'dataset', input: 'returned', start: 0, count: 10 })).toBe(false);
    expect(
      await found('search', { entity: 'dataset', input: 'returned', start: 0, count: 10, searchFlags: { includeSoftDeleted: true } }),
    ).toBe(true);
    expect(await found('searchAcrossEntities', { input: 'returned', start: 0, count: 10 })).toBe(false);
    expect(await found('searchAcrossEntities', { input: 'returned', start: 0, count: 10, searchFlags: { includeSoftDeleted: true } })).toBe(
      true,
    );
    expect(await found('list', { entity: 'dataset', start: 0, count: 1000 })).toBe(false);
    // DataHub's list takes no includeSoftDelete: a filter on `removed` finds the soft-deleted.
    const removed = { or: [{ and: [{ field: 'removed', values: ['true'] }] }] };
    expect(await found('list', { entity: 'dataset', start: 0, count: 1000, filter: removed })).toBe(true);
    expect(await found('autocomplete', { entity: 'dataset', query: 'shop_ret', limit: 10 })).toBe(false);
  });

  it('filters with Rest.li or/and criteria and marks the filtered facet values', async () => {
    const filter = { or: [{ and: [{ field: 'tags', values: ['urn:li:tag:pii'], condition: 'EQUAL' }] }] };
    const { body } = await action('searchAcrossEntities', { entities: ['dataset'], input: '*', filter, start: 0, count: 10 });
    expect(body.value.entities.map((e: { entity: string }) => e.entity)).toContain(ds('orders'));
    expect(body.value.entities.map((e: { entity: string }) => e.entity)).not.toContain(ds('order_lines'));
    const tagFacet = body.value.metadata.aggregations.find((a: { name: string }) => a.name === 'tags');
    expect(tagFacet.filterValues).toContainEqual({ value: 'urn:li:tag:pii', facetCount: expect.any(Number), filtered: true });
    const legacy = await action('search', {
      entity: 'dataset',
      input: '*',
      filter: { criteria: [{ field: 'platform', value: 'urn:li:dataPlatform:kafka' }] },
      start: 0,
      count: 10,
    });
    expect(legacy.body.value.entities).toEqual([{ entity: ds('clicks', 'kafka'), matchedFields: [] }]);
    const bad = await action('search', {
      entity: 'dataset',
      input: '*',
      filter: { criteria: [{ field: 'platform', value: 'x', condition: 'DESCENDANTS_INCL' }] },
      start: 0,
      count: 10,
    });
    expect([bad.status, bad.body.message]).toEqual([400, 'Unsupported filter condition DESCENDANTS_INCL']);
  });

  it('lists with a filter and a sort, and refuses a sort field it cannot sort by', async () => {
    const filter = { or: [{ and: [{ field: 'browsePaths', values: ['/prod/hive/shop'] }] }] };
    const listed = await action('list', { entity: 'dataset', filter, sort: { field: 'urn', order: 'DESCENDING' }, start: 0, count: 10 });
    expect(listed.body.value).toEqual({ entities: [ds('orders'), ds('order_lines')], start: 0, count: 2, total: 2 });
    const criteria = [{ field: 'urn', order: 'ASCENDING' }];
    const listedBoth = await action('list', {
      entity: 'dataset',
      filter,
      sort: { field: 'urn' },
      sortCriteria: criteria,
      start: 0,
      count: 10,
    });
    expect(listedBoth.body.value.entities).toEqual([ds('order_lines'), ds('orders')]);
    const bad = await action('search', { entity: 'dataset', input: '*', sortCriteria: [{ field: 'rowCount' }], start: 0, count: 10 });
    expect([bad.status, bad.body.message]).toEqual([400, 'Cannot sort by rowCount: sort by name or urn']);
  });

  it('autocompletes names and browses browse paths', async () => {
    const completed = await action('autocomplete', { entity: 'dataset', query: 'shop_ord', limit: 5 });
    expect(completed.body.value.suggestions.sort()).toEqual(['shop_order_lines', 'shop_orders']);
    const prod = await action('browse', { entity: 'dataset', path: '/prod', start: 0, limit: 10 });
    expect(prod.body.value.groups).toEqual(
      expect.arrayContaining([
        { name: 'hive', count: 2 },
        { name: 'kafka', count: 1 },
      ]),
    );
    const shop = await action('browse', { entity: 'dataset', path: '/prod/hive/shop', start: 0, limit: 10 });
    expect(shop.body.value).toMatchObject({
      numEntities: 2,
      entities: [
        { name: 'shop_order_lines', urn: ds('order_lines') },
        { name: 'shop_orders', urn: ds('orders') },
      ],
    });
  });

  it('follows every write: a hard delete or a new description changes what is found', async () => {
    await ingest(mcp('editableDatasetProperties', { description: 'Now about refunds' }, { entityUrn: ds('clicks', 'kafka') }));
    const refunds = await action('search', { entity: 'dataset', input: 'refunds', start: 0, count: 10 });
    expect(refunds.body.value.entities.map((e: { entity: string }) => e.entity)).toEqual([ds('clicks', 'kafka')]);
    await action('delete', { urn: ds('clicks', 'kafka') });
    expect((await action('search', { entity: 'dataset', input: 'refunds', start: 0, count: 10 })).body.value.numEntities).toBe(0);
  });
});
