import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { callers, DATASET, deactivateAllUsersPolicies, facesOn, OTHER, OWNER, refusal, tags } from '../faces';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const ENTITY = '/openapi/v3/entity/{entityName}/{urn}';
const ASPECT = '/openapi/v3/entity/{entityName}/{urn}/{aspect}';
const BATCH = '/openapi/v3/entity/{entityName}';
const KEY = { value: { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' } };

describe('the OpenAPI face: DataHub’s GenericEntityV3 answers over the entity service', () => {
  it('reads an entity (its key always), one aspect with its stamps when asked, and 404 with Not-Found-Reason', async () => {
    const { route } = await facesOn(databases);
    const params = { entityName: 'dataset', urn: DATASET };
    expect(await route('GET', ENTITY, { params, query: 'aspects=globalTags' })).toEqual({
      status: 200,
      body: { urn: DATASET, datasetKey: KEY, globalTags: { value: tags('pii') } },
    });
    const item = (await route('GET', ASPECT, { params: { ...params, aspect: 'GLOBALTAGS' }, query: 'systemMetadata=true' })).body;
    expect(item).toMatchObject({
      value: tags('pii'),
      systemMetadata: { version: '1' },
      auditStamp: { actor: 'urn:li:corpuser:__datahub_system' },
    });
    expect(await route('GET', ASPECT, { params: { ...params, aspect: 'status' } })).toEqual({
      status: 404,
      headers: { 'not-found-reason': 'ENTITY' },
      body: { error: `Aspect status of ${DATASET} not found` },
    });
    expect((await route('HEAD', ENTITY, { params })).status).toBe(204);
  });

  it('writes a batch through ingestion and answers each entity with what is now stored; async=false is a 200', async () => {
    const { route } = await facesOn(databases);
    const body = [{ urn: OTHER, globalTags: { value: tags('gold') }, status: { value: { removed: true } } }];
    expect(await route('POST', BATCH, { params: { entityName: 'dataset' }, query: 'async=false', body })).toEqual({
      status: 200,
      body: [{ urn: OTHER, globalTags: { value: tags('gold') }, status: { value: { removed: true } } }],
    });
    const patch = { patch: [{ op: 'add', path: '/tags/urn:li:tag:raw', value: { tag: 'urn:li:tag:raw' } }] };
    expect(
      (await route('PATCH', ASPECT, { params: { entityName: 'dataset', urn: DATASET, aspect: 'globalTags' }, body: patch })).body,
    ).toEqual({
      urn: DATASET,
      globalTags: { value: tags('pii', 'raw') },
    });
  });

  it('refuses with DataHub’s OpenAPI texts, as the policy decides: an owner reads and writes what it owns, deletes nothing', async () => {
    const { route, service } = await facesOn(databases);
    const { nobody, owner, admin } = callers;
    const params = { entityName: 'dataset', urn: DATASET };
    // DataHub's "All Users - View Entity Page" policy lets anyone read; deactivated (as an operator may), reads are refused.
    expect((await route('GET', ENTITY, { params }, nobody)).status).toBe(200);
    await deactivateAllUsersPolicies(service);
    expect(await refusal(() => route('GET', ENTITY, { params }, nobody))).toEqual({
      status: 403,
      message: `${nobody.actor.urn} is unauthorized to READ entities.`,
    });
    expect((await route('GET', ENTITY, { params }, owner)).status).toBe(200);
    expect(await refusal(() => route('GET', ENTITY, { params: { ...params, urn: OTHER } }, owner))).toMatchObject({ status: 403 });
    const write = (urn: string) =>
      route('POST', BATCH, { params: { entityName: 'dataset' }, body: [{ urn, status: { value: { removed: false } } }] }, owner);
    expect((await write(DATASET)).status).toBe(202);
    expect(await refusal(() => write(OTHER))).toEqual({
      status: 403,
      message: `User ${OWNER} is unauthorized to modify entity: HttpStatus: 403 Urn: ${OTHER}`,
    });
    expect(await refusal(() => route('DELETE', ENTITY, { params }, owner))).toEqual({
      status: 403,
      message: `${OWNER} is unauthorized to DELETE entities.`,
    });
    expect(await route('DELETE', ENTITY, { params }, admin)).toEqual({ status: 200 });
    expect((await route('GET', ENTITY, { params }, admin)).status).toBe(404);
  });
});
