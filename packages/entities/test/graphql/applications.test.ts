import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const BILLING = 'urn:li:application:billing';

let requests = 0;
/** A request of its own (a server gives each one its own reads) by an actor holding `privileges`. */
const as = (urn: string, ...privileges: Privilege[]): { context: ApiContext } => ({
  context: { actor: { urn, privileges: new Set([Privilege.VIEW_ENTITY_PAGE, ...privileges]) }, requestId: `r${++requests}` },
});
const editor = () => as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY);
const reader = () => as('urn:li:corpuser:rita');

async function setup() {
  const api = await goldenGraphql(databases, ['test_domains.json'], { now: () => NOW });
  const status = (entityUrn: string) => ({
    proposal: { entityType: 'dataset', entityUrn, changeType: 'UPSERT', aspectName: 'status', aspect: { value: '{"removed":false}' } },
    place: { action: 'test', path: 'status' },
  });
  await api.service.ingest(SYSTEM_ACTOR, [status(ORDERS), status(USERS)], { batch: false });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const errorOf = (result: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) =>
    result.errors?.map((e) => ({ message: e.message, code: e.extensions?.code }));
  return { ...api, stored, errorOf };
}

// The fields of the UI's applicationSearchFields / applicationFields.
const FIELDS = `urn type properties { name description externalUrl numAssets customProperties { key value } }
  ownership { owners { owner { ... on CorpUser { urn } } type } } tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } }
  domain { domain { urn } } institutionalMemory { elements { url } }`;

describe("Applications, as DataHub's ApplicationMapper and application resolvers answer them", () => {
  it('createApplication (CreateApplicationResolver) writes applicationProperties, the creator as owner, and its domain', async () => {
    const { run, stored, errorOf } = await setup();
    const created = await run(
      `mutation createApplication($input: CreateApplicationInput!) { createApplication(input: $input) { ${FIELDS} } }`,
      { input: { id: 'billing', properties: { name: 'Billing', description: 'Invoices' }, domainUrn: 'urn:li:domain:marketing' } },
      editor(),
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createApplication).toEqual({
      urn: BILLING,
      type: 'APPLICATION',
      properties: { name: 'Billing', description: 'Invoices', externalUrl: null, numAssets: null, customProperties: null },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:eddie' }, type: 'TECHNICAL_OWNER' }] },
      tags: null,
      glossaryTerms: null,
      domain: { domain: { urn: 'urn:li:domain:marketing' } },
      institutionalMemory: null,
    });
    expect(await stored(BILLING, 'applicationProperties')).toEqual({ name: 'Billing', description: 'Invoices' });
    expect(await stored(BILLING, 'domains')).toEqual({ domains: ['urn:li:domain:marketing'] });

    const again = await run(
      `mutation { createApplication(input: { id: "billing", properties: { name: "Other" } }) { urn } }`,
      undefined,
      editor(),
    );
    expect(errorOf(again)).toEqual([{ message: 'This Application already exists!', code: 400 }]);
    const refused = await run(
      `mutation { createApplication(input: { id: "nope", properties: { name: "No" } }) { urn } }`,
      undefined,
      reader(),
    );
    expect(errorOf(refused)).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    const random = await run(`mutation { createApplication(input: { properties: { name: "Anonymous" } }) { urn } }`, undefined, editor());
    expect(random.data!.createApplication.urn).toMatch(/^urn:li:application:[0-9a-f-]{36}$/);
  });

  it('batchSetApplication (BatchSetApplicationResolver) sets and unsets the applications aspect; entities answer their application', async () => {
    const { run, query, stored, errorOf } = await setup();
    await run(`mutation { createApplication(input: { id: "billing", properties: { name: "Billing" } }) { urn } }`, undefined, editor());
    const set = await run(
      `mutation batchSetApplication($input: BatchSetApplicationInput!) { batchSetApplication(input: $input) }`,
      { input: { applicationUrn: BILLING, resourceUrns: [ORDERS, USERS] } },
      editor(),
    );
    expect(set.data).toEqual({ batchSetApplication: true });
    expect(await stored(ORDERS, 'applications')).toEqual({ applications: [BILLING] });
    const read = await run(
      `{ dataset(urn: "${ORDERS}") { application { associatedUrn application { urn properties { name } } } }
         application(urn: "${BILLING}") { urn } entity(urn: "${BILLING}") { urn type ... on Application { properties { name } } } }`,
      undefined,
      reader(),
    );
    expect(read.data).toEqual({
      dataset: { application: { associatedUrn: ORDERS, application: { urn: BILLING, properties: { name: 'Billing' } } } },
      application: { urn: BILLING },
      entity: { urn: BILLING, type: 'APPLICATION', properties: { name: 'Billing' } },
    });

    expect(
      errorOf(
        await run(
          `mutation { batchSetApplication(input: { applicationUrn: "${BILLING}", resourceUrns: ["${ORDERS}"] }) }`,
          undefined,
          reader(),
        ),
      ),
    ).toEqual([{ message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 }]);
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)';
    expect(
      errorOf(await run(`mutation { batchSetApplication(input: { applicationUrn: "${BILLING}", resourceUrns: ["${absent}"] }) }`)),
    ).toEqual([{ message: `Failed to batch set Application, ${absent} in resources does not exist`, code: 400 }]);
    expect(
      errorOf(
        await run(`mutation { batchSetApplication(input: { applicationUrn: "urn:li:application:none", resourceUrns: ["${ORDERS}"] }) }`),
      ),
    ).toEqual([{ message: 'Failed to batch set Application, Application urn urn:li:application:none does not exist', code: 400 }]);

    expect((await run(`mutation { batchSetApplication(input: { resourceUrns: ["${USERS}"] }) }`, undefined, editor())).data).toEqual({
      batchSetApplication: true,
    });
    expect(await stored(USERS, 'applications')).toEqual({ applications: [] });
    expect((await query(`{ dataset(urn: "${USERS}") { application { application { urn } } } }`)).dataset.application).toBeNull();
  });

  it('deleteApplication (DeleteApplicationResolver) takes it off its members, then deletes it', async () => {
    const { run, stored, errorOf } = await setup();
    await run(`mutation { createApplication(input: { id: "billing", properties: { name: "Billing" } }) { urn } }`, undefined, editor());
    await run(
      `mutation { batchSetApplication(input: { applicationUrn: "${BILLING}", resourceUrns: ["${ORDERS}"] }) }`,
      undefined,
      editor(),
    );
    expect(errorOf(await run(`mutation { deleteApplication(urn: "${BILLING}") }`, undefined, reader()))).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    expect(
      (await run(`mutation deleteApplication($urn: String!) { deleteApplication(urn: $urn) }`, { urn: BILLING }, editor())).data,
    ).toEqual({
      deleteApplication: true,
    });
    expect(await stored(ORDERS, 'applications')).toEqual({ applications: [] });
    expect(await stored(BILLING, 'applicationProperties')).toBeUndefined();
    expect(errorOf(await run(`mutation { deleteApplication(urn: "${BILLING}") }`, undefined, editor()))).toEqual([
      { message: 'The Application provided does not exist', code: 400 },
    ]);
  });

  it('updateApplication and listApplicationAssets (declared by DataHub, not wired there): as updateDataProduct and listDataProductAssets', async () => {
    const { run, stored, errorOf } = await setup();
    await run(
      `mutation { createApplication(input: { id: "billing", properties: { name: "Billing", description: "Invoices" } }) { urn } }`,
      undefined,
      editor(),
    );
    const UPDATE = `mutation updateApplication($urn: String!, $input: UpdateApplicationInput!) { updateApplication(urn: $urn, input: $input) { urn properties { name description } } }`;
    const renamed = await run(UPDATE, { urn: BILLING, input: { name: 'Billing & payments' } }, editor());
    expect(renamed.data).toEqual({
      updateApplication: { urn: BILLING, properties: { name: 'Billing & payments', description: 'Invoices' } },
    });
    expect(await stored(BILLING, 'applicationProperties')).toEqual({ name: 'Billing & payments', description: 'Invoices' });
    expect(errorOf(await run(UPDATE, { urn: BILLING, input: { description: 'x' } }, reader()))).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    expect(errorOf(await run(UPDATE, { urn: 'urn:li:application:none', input: { name: 'x' } }, editor()))).toEqual([
      { message: 'The Application provided does not exist', code: 400 },
    ]);

    await run(
      `mutation { batchSetApplication(input: { applicationUrn: "${BILLING}", resourceUrns: ["${ORDERS}"] }) }`,
      undefined,
      editor(),
    );
    const LIST = `query listApplicationAssets($urn: String!, $input: SearchAcrossEntitiesInput!) {
      listApplicationAssets(urn: $urn, input: $input) { start count total searchResults { entity { urn } } }
    }`;
    const listed = await run(LIST, { urn: BILLING, input: { query: '*', start: 0, count: 10 } }, reader());
    expect(listed.data).toEqual({ listApplicationAssets: { start: 0, count: 1, total: 1, searchResults: [{ entity: { urn: ORDERS } }] } });
    const none = await run(LIST, { urn: 'urn:li:application:none', input: { query: '*' } }, reader());
    expect(none.data!.listApplicationAssets).toMatchObject({ total: 0, searchResults: [] });
    expect(errorOf(await run(LIST, { urn: ORDERS, input: { query: '*' } }, reader()))).toEqual([
      { message: `${ORDERS} is not an application urn`, code: 400 },
    ]);
  });
});
