import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { print } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readUiDocuments } from '../../../../apps/server/test/webui/ui-documents';
import { actor, upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';
import { uiCallVariables } from '../../../../apps/server/test/webui/ui-queries';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's sample hive dataset and a container of its bootstrap sample (bootstrap_mce.json).
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const OTHER_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const CONTAINER = 'urn:li:container:DATABASE';
const OTHER_CONTAINER = 'urn:li:container:SCHEMA';
const READER_ROLE = 'urn:li:role:snowflake_reader';
const WRITER_ROLE = 'urn:li:role:snowflake_writer';
// A role an asset's access names that no source has described (only the association is stored).
const UNDESCRIBED_ROLE = 'urn:li:role:legacy_grant';
const ME = 'urn:li:corpuser:jdoe';
const OTHER = 'urn:li:corpuser:datahub';

// The UI's own documents (dataset.graphql getExternalRoles with its getRoles fragment, accessrole.graphql
// getExternalRole, container.graphql getContainer: DataHub c731e725, in apps/server/test/fixtures/datahub-web-react)
// and the variables its pages send (variables.json).
const DOCUMENTS = readUiDocuments();
const UI = new Map(DOCUMENTS.operations.map((op) => [op.name, print(op.document)]));
const PLACEHOLDERS: Record<string, string> = { $DATASET_URN: DATASET, $CONTAINER_URN: CONTAINER, $EXTERNAL_ROLE_URN: READER_ROLE };
/** The variables of the UI's call of the query `name`, placeholders filled. */
const uiVariables = (name: string) => uiCallVariables('queries', name, PLACEHOLDERS);

const READER_PROPERTIES = {
  name: 'Snowflake reader',
  description: 'SELECT on the analytics schema',
  type: 'READ',
  requestUrl: 'https://access.example.com/request/snowflake_reader',
  created: { time: 1000, actor: OTHER },
};

/** The sample, plus what a source describing access would ingest: two roles with their users, the access of two assets. */
async function setup() {
  const api = await goldenGraphql(databases, ['bootstrap_mce.json'], {
    keep: (urn, aspect) =>
      ([DATASET, OTHER_DATASET].includes(urn) && aspect === 'datasetProperties') ||
      [CONTAINER, OTHER_CONTAINER].includes(urn) ||
      urn.startsWith('urn:li:corpuser:'),
  });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(READER_ROLE, 'roleProperties', READER_PROPERTIES),
      upsert(READER_ROLE, 'actors', { users: [{ user: ME }, { user: 'urn:li:corpuser:mia' }] }),
      // Only the required fields of roleProperties; no actors aspect.
      upsert(WRITER_ROLE, 'roleProperties', { name: 'Snowflake writer', type: 'WRITE' }),
      upsert(DATASET, 'access', { roles: [{ urn: READER_ROLE }, { urn: WRITER_ROLE }, { urn: UNDESCRIBED_ROLE }] }),
      upsert(CONTAINER, 'access', { roles: [{ urn: WRITER_ROLE }] }),
    ],
    { batch: false },
  );
  const ui = (name: string, who = ME) => api.run(UI.get(name)!, uiVariables(name), { ...actor(who), operationName: name });
  return { ...api, ui };
}

describe("External access roles and assets' access, as DataHub's RoleMapper, AccessMapper and IsAssignedToMeResolver answer them", () => {
  it("the UI's getExternalRoles (its dataset's Access tab) answers each role of the dataset's access aspect, in order", async () => {
    const { ui } = await setup();
    const read = await ui('getExternalRoles');
    expect(read.errors).toBeUndefined();
    expect(read.data).toEqual({
      dataset: {
        __typename: 'Dataset',
        access: {
          roles: [
            {
              role: {
                id: 'snowflake_reader',
                // RoleMapper copies name, description, type and requestUrl (not `created`).
                properties: {
                  name: 'Snowflake reader',
                  description: 'SELECT on the analytics schema',
                  type: 'READ',
                  requestUrl: 'https://access.example.com/request/snowflake_reader',
                },
                urn: READER_ROLE,
                isAssignedToMe: true,
              },
            },
            {
              role: {
                id: 'snowflake_writer',
                properties: { name: 'Snowflake writer', description: null, type: 'WRITE', requestUrl: null },
                urn: WRITER_ROLE,
                isAssignedToMe: false,
              },
            },
            // A role nothing describes: its urn and id, no properties, assigned to no one (never an error).
            { role: { id: 'legacy_grant', properties: null, urn: UNDESCRIBED_ROLE, isAssignedToMe: false } },
          ],
        },
      },
    });
  });

  it('isAssignedToMe is for the signed-in user: another user is not assigned the role jdoe is provisioned in', async () => {
    const { ui } = await setup();
    const read = await ui('getExternalRoles', OTHER);
    expect(read.errors).toBeUndefined();
    expect(read.data!.dataset.access.roles.map((r: { role: { isAssignedToMe: boolean } }) => r.role.isAssignedToMe)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it("the UI's getExternalRole (the role's page) answers its properties; role(urn:) answers the users and associations as AccessMapper does", async () => {
    const { ui, run } = await setup();
    const page = await ui('getExternalRole');
    expect(page.errors).toBeUndefined();
    expect(page.data).toEqual({ role: { properties: { name: 'Snowflake reader', description: 'SELECT on the analytics schema' } } });

    const full = await run(
      `query($urn: String!) { role(urn: $urn) { urn type id actors { users { user { urn username } } } }
        writer: role(urn: "${WRITER_ROLE}") { actors { users { user { urn } } } isAssignedToMe }
        dataset(urn: "${DATASET}") { access { roles { associatedUrn role { urn type } } } } }`,
      { urn: READER_ROLE },
      actor(ME),
    );
    expect(full.errors).toBeUndefined();
    expect(full.data).toEqual({
      role: {
        urn: READER_ROLE,
        type: 'ROLE',
        id: 'snowflake_reader',
        actors: {
          users: [{ user: { urn: ME, username: 'jdoe' } }, { user: { urn: 'urn:li:corpuser:mia', username: 'mia' } }],
        },
      },
      // No actors aspect: null, as RoleMapper leaves it.
      writer: { actors: null, isAssignedToMe: false },
      dataset: {
        access: {
          roles: [READER_ROLE, WRITER_ROLE, UNDESCRIBED_ROLE].map((urn) => ({ associatedUrn: DATASET, role: { urn, type: 'ROLE' } })),
        },
      },
    });
  });

  it('role(urn:) is null for a role not stored and for an urn of another type; a malformed urn is a 400', async () => {
    const { run } = await setup();
    const read = await run(
      `{ absent: role(urn: "urn:li:role:nobody") { urn } other: role(urn: "${DATASET}") { urn } }`,
      undefined,
      actor(ME),
    );
    expect(read.errors).toBeUndefined();
    expect(read.data).toEqual({ absent: null, other: null });
    const bad = await run(`{ role(urn: "not-an-urn") { urn } }`, undefined, actor(ME));
    expect(bad.errors?.[0]?.extensions?.code).toBe(400);
  });

  it("a container's access answers its roles; an asset without an access aspect answers null", async () => {
    const { run } = await setup();
    const read = await run(
      `{ container(urn: "${CONTAINER}") { access { roles { associatedUrn role { urn properties { name } } } } }
         bare: container(urn: "${OTHER_CONTAINER}") { urn access { roles { role { urn } } } }
         other: dataset(urn: "${OTHER_DATASET}") { urn access { roles { role { urn } } } } }`,
      undefined,
      actor(ME),
    );
    expect(read.errors).toBeUndefined();
    expect(read.data!.container).toEqual({
      access: { roles: [{ associatedUrn: CONTAINER, role: { urn: WRITER_ROLE, properties: { name: 'Snowflake writer' } } }] },
    });
    expect(read.data!.bare).toEqual({ urn: OTHER_CONTAINER, access: null });
    expect(read.data!.other).toEqual({ urn: OTHER_DATASET, access: null });
  });

  it("the UI's getContainer (the container's page) answers the container's access among its other fields", async () => {
    const { ui } = await setup();
    const read = await ui('getContainer');
    expect(read.errors).toBeUndefined();
    expect(read.data!.container.urn).toBe(CONTAINER);
    expect(read.data!.container.access).toEqual({ roles: [{ role: { urn: WRITER_ROLE } }] });
  });

  it('roles are found by search and by entity(urn:), as RoleType is searchable', async () => {
    const { run } = await setup();
    const read = await run(
      `{ entity(urn: "${READER_ROLE}") { urn type ... on Role { properties { name } } }
         searchAcrossEntities(input: { types: [ROLE], query: "reader", start: 0, count: 10 }) { total searchResults { entity { urn } } } }`,
      undefined,
      actor(ME, Privilege.VIEW_ENTITY_PAGE),
    );
    expect(read.errors).toBeUndefined();
    expect(read.data).toEqual({
      entity: { urn: READER_ROLE, type: 'ROLE', properties: { name: 'Snowflake reader' } },
      searchAcrossEntities: { total: 1, searchResults: [{ entity: { urn: READER_ROLE } }] },
    });
  });
});
