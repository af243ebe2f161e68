import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

// The rollback of an ingestion run over Rest.li, as `datahub ingest rollback --run-id` sends it (DataHub's
// BatchIngestionRunResource `rollback`), read back over Rest.li.
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,shop.orders,PROD)';
const VIEW = 'urn:li:dataset:(urn:li:dataPlatform:hive,shop.orders_view,PROD)';

let mds: Mds;
const ingest = (urn: string, value: unknown, runId: string) =>
  mds.post('/aspects?action=ingestProposal', {
    proposal: {
      entityType: 'dataset',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
      systemMetadata: { runId, lastObserved: 1 },
    },
  });
const properties = async (urn: string) => (await mds.domains.entities.store.get(urn, 'datasetProperties'))?.value;

beforeAll(async () => {
  mds = await startMds();
  await ingest(ORDERS, { name: 'orders', customProperties: {} }, 'hive-1');
  await ingest(ORDERS, { name: 'orders v2', customProperties: {} }, 'hive-2');
  await ingest(VIEW, { name: 'orders_view', customProperties: {} }, 'hive-2');
});
afterAll(() => mds?.close());

describe('POST /runs?action=rollback', () => {
  it('a dry run answers what would change and changes nothing', async () => {
    const { status, body } = await mds.post('/runs?action=rollback', { runId: 'hive-2', dryRun: true, safe: true });
    expect(status).toBe(200);
    expect(body.value).toMatchObject({ entitiesAffected: 2, entitiesDeleted: 1, aspectsReverted: 2, unsafeEntitiesCount: 0 });
    expect(body.value.aspectRowSummaries.map((r: { urn: string; aspectName: string }) => [r.urn, r.aspectName])).toEqual([
      [ORDERS, 'datasetProperties'],
      [VIEW, 'datasetProperties'],
    ]);
    expect(await properties(ORDERS)).toMatchObject({ name: 'orders v2' });
  });

  it('a safe rollback restores what the run replaced and marks what it created removed; a reader is refused', async () => {
    const reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
    const refused = await mds.post('/runs?action=rollback', { runId: 'hive-2' }, reader);
    expect(refused.status).toBe(403);
    expect(await properties(ORDERS)).toMatchObject({ name: 'orders v2' });

    const { status } = await mds.post('/runs?action=rollback', { runId: 'hive-2', dryRun: false, safe: true });
    expect(status).toBe(200);
    expect(await properties(ORDERS)).toEqual({ name: 'orders', customProperties: {} });
    expect(await mds.domains.entities.store.exists(VIEW, { includeSoftDeleted: false })).toBe(false);
    expect((await mds.domains.entities.store.get(VIEW, 'status'))?.value).toEqual({ removed: true });
    expect(await properties(VIEW)).toBeUndefined();
    // Rolling back run one as well, without safe, removes the dataset it created.
    await mds.post('/runs?action=rollback', { runId: 'hive-1', safe: false });
    expect(await mds.domains.entities.store.exists(ORDERS)).toBe(false);
    expect((await mds.post('/runs?action=rollback', { dryRun: true })).status).toBe(400);
  });
});
