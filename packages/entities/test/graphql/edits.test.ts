import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { schemaOf } from './schema';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const editor: ApiContext = {
  actor: { urn: 'urn:li:corpuser:eddie', privileges: new Set([Privilege.EDIT_ENTITY, Privilege.VIEW_ENTITY_PAGE]) },
  requestId: 'test',
};

/** The entity GraphQL face over a fresh store holding DATASET (tagged `pii`), and what is stored of it. */
async function setup() {
  const entities = await createEntities({ db: await databases.open() });
  const proposal = { entityType: 'dataset', entityUrn: DATASET, changeType: 'UPSERT', aspectName: 'globalTags' };
  const value = JSON.stringify({ tags: [{ tag: 'urn:li:tag:pii' }] });
  await entities.service.ingest(SYSTEM_ACTOR, [{ proposal: { ...proposal, aspect: { value } }, place: { action: 'test', path: 'p' } }], {
    batch: false,
  });
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
  const run = (source: string) => graphql({ schema, source, contextValue: editor }) as Promise<ExecutionResult<Record<string, any>>>;
  const stored = async () => (await entities.store.latest([DATASET])).get(DATASET);
  return { run, stored };
}

describe('GraphQL edits go through the entity service', () => {
  it('an edit that would write an invalid aspect value gets DataHub’s validation error, and writes nothing', async () => {
    const { run, stored } = await setup();
    const before = await stored();
    const memory = await run(`mutation { updateDataset(urn: "${DATASET}", input: {
      editableProperties: { description: "kept out too" },
      institutionalMemory: { elements: [{ url: "https://wiki/orders", author: "jdoe", description: "the runbook" }] } }) { urn } }`);
    expect(memory.errors?.map((e) => ({ message: e.message, extensions: e.extensions }))).toEqual([
      {
        message: `Failed to validate record with class com.linkedin.common.InstitutionalMemory: \nERROR :: /elements/0/createStamp/actor :: "Provided urn jdoe" is invalid: Urn doesn't start with 'urn:'. Urn: jdoe`,
        extensions: { code: 422, type: 'UNPROCESSABLE_ENTITY' },
      },
    ]);
    const tags = await run(
      `mutation { updateDataset(urn: "${DATASET}", input: { tags: { tags: [{ tag: { urn: "pii", name: "PII" } }] } }) { urn } }`,
    );
    expect(tags.errors?.[0]?.message).toBe(
      `Failed to validate record with class com.linkedin.common.GlobalTags: \nERROR :: /tags/0/tag :: "Provided urn pii" is invalid: Urn doesn't start with 'urn:'. Urn: pii`,
    );
    expect(await stored()).toEqual(before);
  });

  it('a batch edit of no resources writes nothing and answers true (found by the GraphQL fuzzing)', async () => {
    const { run, stored } = await setup();
    const before = await stored();
    for (const mutation of ['batchAddTags', 'batchRemoveTags']) {
      expect(await run(`mutation { ${mutation}(input: { tagUrns: [], resources: [] }) }`)).toEqual({ data: { [mutation]: true } });
    }
    expect(await stored()).toEqual(before);
  });
});
