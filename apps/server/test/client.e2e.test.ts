import { createMdsClient, MdsError, timeseriesProposal, type MdsClient } from '@mds/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';
import { T0 } from './support/timeseries-data';

// Every @mds/client method against the real server: the client's types come from the committed SDL, this proves
// the wire agrees with them.
const FORBIDDEN = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const profile = (i: number) =>
  timeseriesProposal({
    entityType: 'dataset',
    entityUrn: DATASET,
    aspectName: 'datasetProfile',
    value: { timestampMillis: T0 + i * 3_600_000, rowCount: i },
  });

let mds: Mds;
let root: MdsClient;
let reader: MdsClient;

beforeAll(async () => {
  mds = await startMds();
  root = createMdsClient({ url: mds.url, token: mds.rootToken });
  reader = createMdsClient({ url: `${mds.url}/`, token: await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader') });
});
afterAll(() => mds?.close());

async function failure(promise: Promise<unknown>): Promise<MdsError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MdsError);
  return error as MdsError;
}

describe('tags', () => {
  it('create, get, update, setColor, describe, search, delete', async () => {
    const urn = await root.tags.create({ id: 'client-pii', name: 'PII', description: 'personal data' });
    expect(urn).toBe('urn:li:tag:client-pii');
    expect(await root.tags.get(urn)).toMatchObject({
      urn,
      type: 'TAG',
      properties: { name: 'PII', description: 'personal data', colorHex: null },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:datahub', username: 'datahub' }, associatedUrn: urn }] },
      created: { actor: 'urn:li:corpuser:datahub', time: expect.any(Number) },
    });
    expect((await root.tags.update(urn, { name: 'Personal data' })).properties).toEqual({
      name: 'Personal data',
      description: 'personal data',
      colorHex: null,
    });
    expect(await root.tags.setColor(urn, '#FF0000')).toBe(true);
    expect(await root.tags.describe(urn, 'Anything that identifies a person')).toBe(true);
    expect((await root.tags.get(urn))?.properties).toEqual({
      name: 'Personal data',
      description: 'Anything that identifies a person',
      colorHex: '#FF0000',
    });

    const found = await root.tags.search({ query: 'person' });
    expect(found.total).toBe(1);
    expect(found.results.map((r) => r.tag.urn)).toEqual([urn]);
    expect((await root.tags.search()).results.map((r) => r.tag.urn)).toContain(urn);

    expect(await root.tags.delete(urn)).toBe(true);
    expect(await root.tags.get(urn)).toBeNull();
  });

  it('errors are MdsErrors with DataHub’s code and type', async () => {
    await root.tags.create({ id: 'client-dup', name: 'dup' });
    expect(await failure(root.tags.create({ id: 'client-dup', name: 'dup' }))).toMatchObject({
      status: 200,
      code: 400,
      type: 'BAD_REQUEST',
      message: 'This Tag already exists!',
    });
    expect(await failure(reader.tags.create({ name: 'nope' }))).toMatchObject({
      status: 200,
      code: 403,
      type: 'UNAUTHORIZED',
      message: FORBIDDEN,
      path: ['createTag'],
    });
    expect(await failure(root.tags.setColor('urn:li:tag:client-dup', 'red'))).toMatchObject({ code: 400, type: 'BAD_REQUEST' });
  });
});

describe('tokens and me', () => {
  it('me, create, list, revoke — and a revoked token is refused on the next request (401)', async () => {
    expect(await root.me()).toMatchObject({
      corpUser: { urn: 'urn:li:corpuser:datahub', username: 'datahub' },
      platformPrivileges: { manageTokens: true, manageTags: true },
    });
    expect((await reader.me()).platformPrivileges).toMatchObject({ manageTags: false, generatePersonalAccessTokens: true });

    const { accessToken, metadata } = await root.tokens.create({
      actorUrn: 'urn:li:corpuser:datahub',
      name: 'client e2e',
      duration: 'ONE_HOUR',
      description: 'from @mds/client',
    });
    expect(metadata).toMatchObject({
      name: 'client e2e',
      description: 'from @mds/client',
      actorUrn: 'urn:li:corpuser:datahub',
      ownerUrn: 'urn:li:corpuser:datahub',
      expiresAt: expect.any(Number),
    });
    const minted = createMdsClient({ url: mds.url, token: accessToken });
    expect((await minted.me()).corpUser.username).toBe('datahub');

    const listed = await root.tokens.list({ filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:datahub'] }] });
    expect(listed.tokens.map((t) => t.id)).toContain(metadata.id);
    expect(await root.tokens.revoke(metadata.id)).toBe(true);
    expect(await failure(minted.me())).toMatchObject({
      status: 401,
      code: 401,
      type: 'UNAUTHENTICATED',
      message: 'Unauthorized to perform this action.',
    });
    expect(await failure(minted.operations.getIndexSizes())).toMatchObject({ status: 401, code: 401, type: 'UNAUTHENTICATED' });
  });

  it('request() runs any other operation with the same error mapping', async () => {
    const roles = await root.request<{ listRoles: { total: number } }, { input: object }>(
      'query r($input: ListRolesInput!) { listRoles(input: $input) { total } }',
      { input: {} },
    );
    expect(roles.listRoles.total).toBe(3);
    expect(await failure(root.request('{ qqqqqqqqqqqq }'))).toMatchObject({
      status: 400,
      code: 400,
      type: 'BAD_REQUEST',
      message: 'Cannot query field "qqqqqqqqqqqq" on type "Query".',
    });
  });
});

describe('ingestion and operations', () => {
  it('ingestProposal(Batch), getIndexSizes, truncate (dry run, then for real) and getEsTaskStatus', async () => {
    expect(await root.ingestProposal(profile(0))).toBe(DATASET);
    expect(await root.ingestProposalBatch(Array.from({ length: 99 }, (_, i) => profile(i + 1)))).toBe('success');
    const sizes = await root.operations.getIndexSizes();
    expect(sizes).toEqual([
      {
        aspectName: 'datasetprofile',
        entityName: 'dataset',
        indexName: 'dataset_datasetprofileaspect_v1',
        sizeMb: expect.any(Number),
        sizeInMb: sizes[0]!.sizeMb,
      },
    ]);

    const params = { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: T0 + 9 * 3_600_000 };
    expect(await root.operations.truncateTimeseriesAspect(params)).toBe(
      'Delete 10 out of 100 rows (10.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
    );
    const task = await root.operations.truncateTimeseriesAspect({ ...params, dryRun: false, batchSize: 3 });
    expect(task).toMatch(/^[\w-]+:\d+$/);
    await expect
      .poll(() => root.operations.getEsTaskStatus(task), { timeout: 10_000 })
      .toMatchObject({ completed: true, taskId: task, status: { total: 10, deleted: 10 } });
    expect(await root.operations.getEsTaskStatus('unknownnode:7')).toEqual({ error: 'Could not get task status for unknownnode:7' });
  });

  it('REST refusals and bad input are MdsErrors carrying the server’s message', async () => {
    expect(await failure(reader.operations.getIndexSizes())).toMatchObject({
      status: 403,
      code: 403,
      type: 'UNAUTHORIZED',
      message: 'User is unauthorized to get index sizes.',
    });
    expect(
      await failure(reader.operations.truncateTimeseriesAspect({ entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 0 })),
    ).toMatchObject({ status: 403, message: 'User is unauthorized to truncate timeseries index' });
    expect(await failure(reader.operations.getEsTaskStatus('n:1'))).toMatchObject({
      status: 403,
      message: 'User is unauthorized to get ES task status',
    });
    expect(await failure(root.operations.getEsTaskStatus('not a task'))).toMatchObject({
      status: 400,
      type: 'BAD_REQUEST',
      message: expect.stringContaining('Task should be in the form nodeId:taskId'),
    });
    const { value: _value, ...noTimestamp } = profile(0).aspect;
    expect(await failure(root.ingestProposal({ ...profile(0), aspect: { ...noTimestamp, value: '{}' } }))).toMatchObject({
      status: 400,
      type: 'BAD_REQUEST',
      message: expect.stringMatching(/^Parameter 'proposal\.aspect\.value' of action 'ingestProposal'/),
    });
  });
});
