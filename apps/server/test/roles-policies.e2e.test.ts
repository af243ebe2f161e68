import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments, type UiOperation } from './webui/ui-documents';
import { bootstrapPlaceholders, readUiVariables, runUiOperation } from './webui/ui-queries';

// The Roles page (the UI's role.graphql listRoles, with the variables of UserList.tsx) over a real mds holding DataHub's
// default Editor policies (boot/policies.json at c731e725, the fixture of @mds/auth): each role lists the policies
// associated with it, and each policy answers as DataHub's DataHubPolicyMapper maps its dataHubPolicyInfo.
type DataHubPolicyJson = { urn: string; info: Record<string, any> };
const DEFAULT_POLICIES = JSON.parse(
  readFileSync(new URL('../../../packages/auth/test/fixtures/datahub/policies.json', import.meta.url), 'utf8'),
) as DataHubPolicyJson[];
const EDITOR_POLICIES = DEFAULT_POLICIES.filter((p) => p.info.actors.roles?.includes('urn:li:dataHubRole:Editor'));

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  for (const policy of EDITOR_POLICIES) {
    const proposal = {
      entityType: 'dataHubPolicy',
      entityUrn: policy.urn,
      changeType: 'UPSERT',
      aspectName: 'dataHubPolicyInfo',
      aspect: { contentType: 'application/json', value: JSON.stringify(policy.info) },
    };
    const res = await mds.post('/aspects?action=ingestProposal', { proposal });
    expect([res.status, res.body?.message]).toEqual([200, undefined]);
  }
});
afterAll(() => mds?.close());

const post = async (body: { query: string; operationName?: string; variables: Record<string, unknown> }) => {
  const res = await mds.clientFor(mds.rootToken).post('/api/graphql', body);
  return { status: res.status, body: res.body };
};

describe("The Roles page: listRoles' policies as DataHubPolicy entities (DataHub's ListRolesResolver, DataHubPolicyMapper)", () => {
  it("answers the UI's listRoles: the Editor role's policies by name, each associated with one role", async () => {
    expect(EDITOR_POLICIES.length).toBe(3);
    const op = readUiDocuments().operations.find((o): o is UiOperation => o.kind === 'query' && o.name === 'listRoles')!;
    const call = readUiVariables().queries.listRoles![0]!;
    const { status, body } = await runUiOperation(post, op, call, bootstrapPlaceholders().values);
    expect(status).toBe(200);
    expect(body?.errors).toBeUndefined();
    const roles = (body?.data as any).listRoles.roles as any[];
    expect(roles.map((r) => r.name)).toEqual(['Admin', 'Editor', 'Reader']);
    const editor = roles.find((r) => r.name === 'Editor');
    expect(editor.policies.total).toBe(EDITOR_POLICIES.length);
    const listed = (editor.policies.relationships as any[]).map((r) => r.entity);
    expect(listed.sort((a, b) => a.urn.localeCompare(b.urn))).toEqual(
      [...EDITOR_POLICIES]
        .sort((a, b) => a.urn.localeCompare(b.urn))
        .map((p) => ({ urn: p.urn, type: 'DATAHUB_POLICY', name: p.info.displayName, relationships: { start: 0, count: 1, total: 1 } })),
    );
    for (const other of roles.filter((r) => r.name !== 'Editor')) expect(other.policies).toMatchObject({ total: 0, relationships: [] });
  });

  it("maps each field of the stored dataHubPolicyInfo as DataHub's mapper does (type as policyType)", async () => {
    const { body } = await post({
      query: `query($input: ListRolesInput!) { listRoles(input: $input) { roles { name
        policies: relationships(input: { types: ["IsAssociatedWithRole"], direction: INCOMING, start: 0, count: 10 }) {
          relationships { entity { urn type ... on DataHubPolicy {
            name policyType state description editable privileges
            actors { users groups roles allUsers allGroups resourceOwners resolvedRoles { urn name } }
            resources { type allResources resources filter { criteria { field condition values { value } } } }
          } } }
        } } } }`,
      variables: { input: { start: 0, count: 10, query: 'Editor' } },
    });
    expect(body.errors).toBeUndefined();
    const policies = (body.data.listRoles.roles[0].policies.relationships as any[]).map((r) => r.entity);
    const entities = EDITOR_POLICIES.find((p) => p.urn === 'urn:li:dataHubPolicy:editor-metadata-policy-entities')!;
    expect(policies.find((p) => p.urn === entities.urn)).toEqual({
      urn: entities.urn,
      type: 'DATAHUB_POLICY',
      name: entities.info.displayName,
      policyType: 'METADATA',
      state: 'ACTIVE',
      description: entities.info.description,
      editable: entities.info.editable,
      privileges: ['EDIT_ENTITY'],
      actors: {
        users: [],
        groups: [],
        roles: ['urn:li:dataHubRole:Editor'],
        allUsers: false,
        allGroups: false,
        resourceOwners: false,
        resolvedRoles: [{ urn: 'urn:li:dataHubRole:Editor', name: 'Editor' }],
      },
      resources: {
        type: null,
        allResources: false,
        resources: null,
        filter: {
          criteria: [
            {
              field: 'RESOURCE_TYPE',
              condition: 'EQUALS',
              values: entities.info.resources.filter.criteria[0].values.map((value: string) => ({ value })),
            },
          ],
        },
      },
    });
    const platform = policies.find((p) => p.urn === 'urn:li:dataHubPolicy:editor-platform-policy');
    expect(platform).toMatchObject({ policyType: 'PLATFORM', editable: false, resources: null });
    expect([...platform.privileges].sort()).toEqual([...EDITOR_POLICIES.find((p) => p.urn === platform.urn)!.info.privileges].sort());
  });
});
