import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { actor, ds, errorOf, upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const ORDERS = ds('hive', 'orders');
const USERS = ds('hive', 'users');
const UPDATE = `mutation updateDatasets($input: [BatchDatasetUpdateInput!]!) {
  updateDatasets(input: $input) { urn editableProperties { description } }
}`;

async function setup() {
  const api = await goldenGraphql(databases, [], { now: () => 1_700_000_000_000 });
  await api.service.ingest(SYSTEM_ACTOR, [upsert(ORDERS, 'status', { removed: false }), upsert(USERS, 'status', { removed: false })], {
    batch: false,
  });
  const stored = async (urn: string) =>
    (await api.store.latest([urn], ['editableDatasetProperties'])).get(urn)?.get('editableDatasetProperties')?.value;
  const item = (urn: string, description: string) => ({ urn, update: { editableProperties: { description } } });
  return { ...api, stored, item };
}

describe("updateDatasets, as DataHub's MutableTypeBatchResolver over DatasetType.batchUpdate", () => {
  it('writes every dataset’s update and answers the datasets in the input’s order', async () => {
    const { run, stored, item } = await setup();
    const result = await run(
      UPDATE,
      { input: [item(USERS, 'People'), item(ORDERS, 'Sales')] },
      actor('urn:li:corpuser:d', Privilege.EDIT_ENTITY_DOCS),
    );
    expect(result).toEqual({
      data: {
        updateDatasets: [
          { urn: USERS, editableProperties: { description: 'People' } },
          { urn: ORDERS, editableProperties: { description: 'Sales' } },
        ],
      },
    });
    expect(await stored(ORDERS)).toMatchObject({
      description: 'Sales',
      lastModified: { actor: 'urn:li:corpuser:d', time: 1_700_000_000_000 },
    });
  });

  it('writes none when one is refused (a privilege, an absent dataset)', async () => {
    const { run, stored, item } = await setup();
    const refused = await run(
      UPDATE,
      { input: [item(ORDERS, 'Sales'), item(USERS, 'People')] },
      actor('urn:li:corpuser:t', Privilege.EDIT_ENTITY_TAGS),
    );
    expect(errorOf(refused)).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    const absent = ds('hive', 'never');
    const missing = await run(
      UPDATE,
      { input: [item(ORDERS, 'Sales'), item(absent, 'x')] },
      actor('urn:li:corpuser:e', Privilege.EDIT_ENTITY),
    );
    expect(errorOf(missing)).toEqual([{ message: `Failed to update ${absent}. ${absent} does not exist.`, code: 400 }]);
    expect(await stored(ORDERS)).toBeUndefined();
  });
});
