import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestSnapshots } from './support/datahub-files';
import { upsertAspect } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';
import { readUiVariables, runUiOperation } from './webui/ui-queries';

// A dataset's Access tab and an external role's page of DataHub's web UI on a real mds: the roles and the dataset's
// access written as an ingestion source writes them (Rest.li ingestProposal), then the UI's own getExternalRoles and
// getExternalRole (dataset.graphql, accessrole.graphql; apps/server/test/fixtures/datahub-web-react) sent over HTTP as
// signed-in users, with the variables its pages send. `isAssignedToMe` (DataHub's IsAssignedToMeResolver) is decided
// for the token's actor.
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const READER_ROLE = 'urn:li:role:snowflake_reader';
const WRITER_ROLE = 'urn:li:role:snowflake_writer';
/** The reader role's roleProperties, as written and as the role page answers them. */
const READER_PROPERTIES = {
  name: 'Snowflake reader',
  description: 'SELECT on the analytics schema',
  type: 'READ',
  requestUrl: 'https://access.example.com/request/snowflake_reader',
};
const JDOE = 'urn:li:corpuser:jdoe';
const RITA = 'urn:li:corpuser:rita';

const { operations } = readUiDocuments();
const fixture = readUiVariables();
const uiQuery = (name: string) => operations.find((op) => op.kind === 'query' && op.name === name)!;

let mds: Mds;

/** Writes one aspect as DataHub's emitters do (an UPSERT proposal over Rest.li). */
const write = (entityType: string, entityUrn: string, aspectName: string, value: unknown) =>
  upsertAspect(mds, entityType, entityUrn, aspectName, value);

beforeAll(async () => {
  mds = await startMds();
  await ingestSnapshots(mds);
  await write('role', READER_ROLE, 'roleProperties', READER_PROPERTIES);
  await write('role', READER_ROLE, 'actors', { users: [{ user: JDOE }] });
  await write('role', WRITER_ROLE, 'roleProperties', { name: 'Snowflake writer', type: 'WRITE' });
  await write('role', WRITER_ROLE, 'actors', { users: [{ user: RITA }] });
  await write('dataset', DATASET, 'access', { roles: [{ urn: READER_ROLE }, { urn: WRITER_ROLE }] });
});
afterAll(() => mds?.close());

/** The UI's query `name` with its page's variables, sent with `token`; its data, failing on any error. */
async function ui(name: string, values: Record<string, unknown>, token: string) {
  const result = await runUiOperation(
    (body) => mds.clientFor(token).post('/api/graphql', body),
    uiQuery(name),
    fixture.queries[name]![0]!,
    values,
  );
  expect([result.status, graphqlError(result as never)]).toEqual([200, undefined]);
  return (result.body as { data: Record<string, any> }).data;
}

describe("the UI's Access tab and role page on mds", () => {
  it('getExternalRoles answers the roles of the dataset, each assigned to the signed-in user only where the role names them', async () => {
    const jdoe = await mds.tokenFor(JDOE, 'urn:li:dataHubRole:Reader');
    const rita = await mds.tokenFor(RITA, 'urn:li:dataHubRole:Reader');
    const assigned = async (token: string) =>
      (await ui('getExternalRoles', { $DATASET_URN: DATASET }, token)).dataset.access.roles.map(
        (r: { role: { urn: string; isAssignedToMe: boolean } }) => [r.role.urn, r.role.isAssignedToMe],
      );
    expect(await assigned(jdoe)).toEqual([
      [READER_ROLE, true],
      [WRITER_ROLE, false],
    ]);
    expect(await assigned(rita)).toEqual([
      [READER_ROLE, false],
      [WRITER_ROLE, true],
    ]);
    const { dataset } = await ui('getExternalRoles', { $DATASET_URN: DATASET }, jdoe);
    expect(dataset.access.roles[0].role).toEqual({
      id: 'snowflake_reader',
      // RoleMapper copies each of them.
      properties: READER_PROPERTIES,
      urn: READER_ROLE,
      isAssignedToMe: true,
    });
  });

  it("getExternalRole answers the role page's name and description", async () => {
    const jdoe = await mds.tokenFor(JDOE, 'urn:li:dataHubRole:Reader');
    expect(await ui('getExternalRole', { $EXTERNAL_ROLE_URN: WRITER_ROLE }, jdoe)).toEqual({
      role: { properties: { name: 'Snowflake writer', description: null } },
    });
  });

  it("the datasets a role gives access to are found by the access aspect's `roles` filter, as DataHub indexes it", async () => {
    const result = await mds.graphql(
      `query($role: String!) { searchAcrossEntities(input: { types: [DATASET], query: "*", start: 0, count: 10,
        orFilters: [{ and: [{ field: "roles", values: [$role] }] }] }) { total searchResults { entity { urn } } } }`,
      { role: READER_ROLE },
    );
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.searchAcrossEntities).toEqual({ total: 1, searchResults: [{ entity: { urn: DATASET } }] });
  });
});
