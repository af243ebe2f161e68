import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { callers, DATASET, deactivateAllUsersPolicies, facesOn, mcp, OTHER, OWNER, refusal, tags } from '../faces';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const enc = encodeURIComponent;

describe('the Rest.li face: what its actions and reads answer (the host adds the envelope and the error body)', () => {
  it('ingestProposal answers the urn, ingestProposalBatch "success"; /aspects wraps the value by its PDL class', async () => {
    const { action, read } = await facesOn(databases);
    expect(await action('aspects', 'ingestProposal', { proposal: mcp(DATASET, 'globalTags', tags('gold')) })).toBe(DATASET);
    expect(await action('aspects', 'ingestProposalBatch', { proposals: [mcp(OTHER, 'globalTags', tags('gold'))] })).toBe('success');
    expect(await read('aspects', enc(DATASET), 'aspect=globalTags')).toEqual({
      aspect: { 'com.linkedin.common.GlobalTags': tags('gold') },
      version: 0,
    });
    expect(await read('aspects', enc(DATASET), 'aspect=globalTags&version=-1')).toEqual({
      aspect: { 'com.linkedin.common.GlobalTags': tags('pii') },
      version: 1,
    });
    expect(await refusal(() => read('aspects', enc(DATASET), 'aspect=status'))).toEqual({ status: 404, message: '' });
  });

  it('/entitiesV2 always has the key aspect; its batch form is keyed by urn; /entities answers the class-wrapped snapshot', async () => {
    const { read } = await facesOn(databases);
    const unknown = 'urn:li:dataset:(urn:li:dataPlatform:hive,nothing,PROD)';
    expect((await read('entitiesV2', enc(unknown))).aspects).toEqual({
      datasetKey: {
        name: 'datasetKey',
        type: 'VERSIONED',
        version: 0,
        value: { platform: 'urn:li:dataPlatform:hive', name: 'nothing', origin: 'PROD' },
      },
    });
    const batch = await read('entitiesV2', undefined, `ids=List(${enc(DATASET)},${enc(OTHER)})&aspects=List(globalTags)`);
    expect(Object.keys(batch.results).sort()).toEqual([OTHER, DATASET]);
    expect(Object.keys(batch.results[DATASET].aspects).sort()).toEqual(['datasetKey', 'globalTags']);
    expect((await read('entities', enc(DATASET), 'aspects=List(globalTags)')).value).toEqual({
      'com.linkedin.metadata.snapshot.DatasetSnapshot': {
        urn: DATASET,
        aspects: [
          { 'com.linkedin.metadata.key.DatasetKey': { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' } },
          { 'com.linkedin.common.GlobalTags': tags('pii') },
        ],
      },
    });
    expect(await refusal(() => read('entities', enc(unknown)))).toEqual({ status: 404, message: `Did not find ${unknown}` });
  });

  it('answers the edges of an entity, and whether it exists', async () => {
    const { action, read } = await facesOn(databases);
    expect(await read('relationships', undefined, `urn=${enc(DATASET)}&direction=OUTGOING&types=List(TaggedWith)`)).toEqual({
      start: 0,
      count: 1,
      total: 1,
      relationships: [{ type: 'TaggedWith', entity: 'urn:li:tag:pii' }],
    });
    expect(await action('entities', 'exists', { urn: OTHER })).toBe(true);
  });

  it.each([
    ['protocol 2.0 List(...)', (name: string, values: string[]) => `${name}=List(${values.map(enc).join(',')})`],
    ['repeated parameters (protocol 1.0)', (name: string, values: string[]) => values.map((v) => `${name}=${enc(v)}`).join('&')],
  ])('reads every array parameter spelled as %s, and a bare single value', async (_, spell) => {
    const { action, read } = await facesOn(databases);
    await action('aspects', 'ingestProposal', { proposal: mcp(DATASET, 'ownership', { owners: [{ owner: OWNER, type: 'DATAOWNER' }] }) });
    const edges = await read(
      'relationships',
      undefined,
      `urn=${enc(DATASET)}&direction=OUTGOING&${spell('types', ['TaggedWith', 'OwnedBy'])}`,
    );
    expect(edges.relationships).toEqual([
      { type: 'OwnedBy', entity: OWNER },
      { type: 'TaggedWith', entity: 'urn:li:tag:pii' },
    ]);
    const one = await read('relationships', undefined, `urn=${enc(DATASET)}&direction=OUTGOING&types=OwnedBy`);
    expect(one.relationships).toEqual([{ type: 'OwnedBy', entity: OWNER }]);

    const batch = await read('entitiesV2', undefined, `${spell('ids', [DATASET, OTHER])}&${spell('aspects', ['globalTags', 'ownership'])}`);
    expect(Object.keys(batch.results).sort()).toEqual([OTHER, DATASET]);
    expect(Object.keys(batch.results[DATASET].aspects).sort()).toEqual(['datasetKey', 'globalTags', 'ownership']);
    // A bare tuple URN, unencoded, is one id: its commas are its own.
    const bare = await read('entitiesV2', undefined, `ids=${DATASET}&aspects=globalTags`);
    expect(Object.keys(bare.results)).toEqual([DATASET]);
    expect(Object.keys(bare.results[DATASET].aspects).sort()).toEqual(['datasetKey', 'globalTags']);
    const single = await read('entitiesV2', enc(DATASET), spell('aspects', ['ownership']));
    expect(Object.keys(single.aspects).sort()).toEqual(['datasetKey', 'ownership']);
  });

  it('refuses with each operation’s DataHub text, as the policy decides: an owner reads and writes what it owns, deletes nothing', async () => {
    const { action, read, service } = await facesOn(databases);
    const { nobody, owner } = callers;
    // DataHub's "All Users - View Entity Page" policy lets anyone read; deactivated (as an operator may), reads are refused.
    expect((await read('aspects', enc(DATASET), 'aspect=globalTags', nobody)).version).toBe(0);
    await deactivateAllUsersPolicies(service);
    expect(await refusal(() => read('aspects', enc(DATASET), 'aspect=globalTags', nobody))).toEqual({
      status: 403,
      message: `User is unauthorized to get aspect for ${DATASET}`,
    });
    expect(await refusal(() => read('entitiesV2', enc(OTHER), '', owner))).toEqual({
      status: 403,
      message: `User is unauthorized to get entity ${OTHER}`,
    });
    expect(await refusal(() => action('entities', 'exists', { urn: OTHER }, owner))).toEqual({
      status: 403,
      message: `User is unauthorized check entity existence: ${OTHER}`,
    });
    expect(
      await refusal(() =>
        action('aspects', 'ingestProposalBatch', { proposals: [mcp(DATASET, 'status', {}), mcp(OTHER, 'status', {})] }, owner),
      ),
    ).toEqual({
      status: 403,
      message: `User ${OWNER} is unauthorized to modify entity: HttpStatus: 403 Urn: ${OTHER}`,
    });
    expect(await refusal(() => action('entities', 'delete', { urn: DATASET }, owner))).toEqual({
      status: 403,
      message: `User is unauthorized to delete entity: ${DATASET}`,
    });
    expect((await read('aspects', enc(DATASET), 'aspect=globalTags', owner)).version).toBe(0);
    expect(await action('aspects', 'ingestProposal', { proposal: mcp(DATASET, 'status', { removed: false }) }, owner)).toBe(DATASET);
    expect(await action('entities', 'delete', { urn: DATASET }, callers.admin)).toEqual({ urn: DATASET, rows: 4, timeseriesRows: 0 });
  });
});
