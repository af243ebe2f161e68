import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEntities, createEntityGraphql } from '../../src/index';
import { schemaOf } from './schema';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USER = 'urn:li:corpuser:stew';
const as = (urn: string, ...privileges: string[]): ApiContext => ({
  actor: { urn, privileges: new Set(privileges) },
  requestId: 'policies',
});
const admin = as('urn:li:corpuser:ada', Privilege.MANAGE_POLICIES);
const stew = as(USER);

// The fields of the UI's policy.graphql (fixtures/datahub-web-react, DataHub c731e725), its entity fragment cut to urn/type.
const LIST = `query listPolicies($input: ListPoliciesInput!) {
  listPolicies(input: $input) {
    start count total
    policies {
      urn type name description state privileges editable
      resources { type allResources resources filter { criteria { field condition values { value entity { urn type } } } } }
      actors {
        users groups roles allUsers allGroups resourceOwners resourceOwnersTypes
        resolvedOwnershipTypes { urn }
        resolvedUsers { username urn }
        resolvedGroups { name urn }
        resolvedRoles { urn type name description }
      }
    }
  }
}`;
const CREATE = 'mutation createPolicy($input: PolicyUpdateInput!) { createPolicy(input: $input) }';
const UPDATE = 'mutation updatePolicy($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }';
const DELETE = 'mutation deletePolicy($urn: String!) { deletePolicy(urn: $urn) }';
const GRANTED = 'query getGrantedPrivileges($input: GetGrantedPrivilegesInput!) { getGrantedPrivileges(input: $input) { privileges } }';

/** The input the UI's usePolicy.ts sends (variables.json), for USER. */
const input = (state: string) => ({
  type: 'METADATA',
  name: 'Stewards edit docs',
  state,
  description: '',
  privileges: ['EDIT_ENTITY_DOCS'],
  actors: { users: [USER], groups: [], allUsers: false, allGroups: false, resourceOwners: false, resourceOwnersTypes: [] },
  resources: { allResources: true },
});

async function setup() {
  const entities = await createEntities({ db: await databases.open(), now: () => 1_700_000_000_000 });
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search, now: () => 1_700_000_000_000 }));
  const run = (source: string, variableValues: Record<string, unknown>, context = admin) =>
    graphql({ schema, source, variableValues, contextValue: context }) as Promise<ExecutionResult<Record<string, any>>>;
  const ok = async (source: string, variableValues: Record<string, unknown>, context = admin) => {
    const result = await run(source, variableValues, context);
    expect(result.errors).toBeUndefined();
    return result.data!;
  };
  return { ...entities, run, ok };
}

describe("Access policies, as DataHub's policy resolvers answer them", () => {
  it('createPolicy stores dataHubPolicyInfo as UpsertPolicyResolver does; the policy grants from the next request', async () => {
    const { ok, store, service } = await setup();
    expect(await service.allows(stew.actor, [[Privilege.EDIT_ENTITY_DOCS]], DATASET)).toBe(false);
    const { createPolicy: urn } = await ok(CREATE, { input: input('ACTIVE') });
    expect(urn).toMatch(/^urn:li:dataHubPolicy:[0-9a-f-]{36}$/);
    expect((await store.get(urn, 'dataHubPolicyInfo'))!.value).toEqual({
      displayName: 'Stewards edit docs',
      description: '',
      type: 'METADATA',
      state: 'ACTIVE',
      privileges: ['EDIT_ENTITY_DOCS'],
      actors: { users: [USER], groups: [], allUsers: false, allGroups: false, resourceOwners: false, resourceOwnersTypes: [] },
      resources: { allResources: true },
      editable: true,
      lastUpdatedTimestamp: 1_700_000_000_000,
    });
    expect(await service.allows(stew.actor, [[Privilege.EDIT_ENTITY_DOCS]], DATASET)).toBe(true);
    expect(await service.allows(stew.actor, [[Privilege.EDIT_ENTITY_TAGS]], DATASET)).toBe(false);
    expect(
      (await ok(GRANTED, { input: { actorUrn: USER, resourceSpec: { resourceType: 'DATASET', resourceUrn: DATASET } } }, stew))
        .getGrantedPrivileges,
    ).toEqual({
      privileges: ['EDIT_ENTITY_DOCS'],
    });

    // updatePolicy (the UI's deactivation) takes effect on the next decision; deletePolicy removes the entity.
    expect(await ok(UPDATE, { urn, input: input('INACTIVE') })).toEqual({ updatePolicy: urn });
    expect(await service.allows(stew.actor, [[Privilege.EDIT_ENTITY_DOCS]], DATASET)).toBe(false);
    expect(await ok(DELETE, { urn })).toEqual({ deletePolicy: urn });
    expect(await store.get(urn, 'dataHubPolicyInfo')).toBeUndefined();
  });

  it('listPolicies answers PolicyInfoPolicyMapper’s fields, pages, matches the query and filters on state', async () => {
    const { ok } = await setup();
    const { createPolicy: first } = await ok(CREATE, { input: input('ACTIVE') });
    await ok(CREATE, {
      input: {
        ...input('INACTIVE'),
        name: 'Tagged pii',
        type: 'METADATA',
        actors: {
          allUsers: false,
          allGroups: true,
          resourceOwners: true,
          resourceOwnersTypes: ['urn:li:ownershipType:__system__technical_owner'],
        },
        resources: { filter: { criteria: [{ field: 'TAG', values: ['urn:li:tag:pii'], condition: 'EQUALS' }] } },
      },
    });
    const all = (await ok(LIST, { input: { start: 0, count: 10, query: '', orFilters: [] } })).listPolicies;
    expect(all).toMatchObject({ start: 0, count: 2, total: 2 });
    const steward = all.policies.find((p: { urn: string }) => p.urn === first);
    expect(steward).toEqual({
      urn: first,
      type: 'METADATA',
      name: 'Stewards edit docs',
      description: '',
      state: 'ACTIVE',
      privileges: ['EDIT_ENTITY_DOCS'],
      editable: true,
      resources: { type: null, allResources: true, resources: null, filter: null },
      actors: {
        users: [USER],
        groups: [],
        roles: null,
        allUsers: false,
        allGroups: false,
        resourceOwners: false,
        resourceOwnersTypes: [],
        resolvedOwnershipTypes: [],
        resolvedUsers: [{ username: 'stew', urn: USER }],
        resolvedGroups: [],
        resolvedRoles: [],
      },
    });
    const pii = all.policies.find((p: { name: string }) => p.name === 'Tagged pii');
    expect(pii.resources.filter).toEqual({
      criteria: [
        { field: 'TAG', condition: 'EQUALS', values: [{ value: 'urn:li:tag:pii', entity: { urn: 'urn:li:tag:pii', type: 'TAG' } }] },
      ],
    });
    expect(pii.actors.resolvedOwnershipTypes).toEqual([{ urn: 'urn:li:ownershipType:__system__technical_owner' }]);

    const page = (variables: Record<string, unknown>) => ok(LIST, { input: { start: 0, count: 10, ...variables } });
    expect((await page({ query: 'pii' })).listPolicies.policies.map((p: { name: string }) => p.name)).toEqual(['Tagged pii']);
    expect((await page({ count: 1 })).listPolicies).toMatchObject({ count: 1, total: 2 });
    const active = await page({ orFilters: [{ and: [{ field: 'state', values: ['ACTIVE'] }] }] });
    expect(active.listPolicies.policies.map((p: { urn: string }) => p.urn)).toEqual([first]);
  });

  it('refuses callers without MANAGE_POLICIES with DataHub’s text, and bad input with a 400 naming the field', async () => {
    const { run } = await setup();
    for (const [source, variables] of [
      [LIST, { input: {} }],
      [CREATE, { input: input('ACTIVE') }],
      [UPDATE, { urn: 'urn:li:dataHubPolicy:x', input: input('ACTIVE') }],
      [DELETE, { urn: 'urn:li:dataHubPolicy:x' }],
    ] as const) {
      const { errors } = await run(source, variables, stew);
      expect(errors?.[0]?.message).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
    }
    expect((await run(UPDATE, { urn: 'urn:li:dataset:x', input: input('ACTIVE') })).errors?.[0]?.message).toContain("Field 'urn'");
    expect((await run(CREATE, { input: { ...input('ACTIVE'), name: ' ' } })).errors?.[0]?.message).toContain("Field 'name'");
    expect((await run(LIST, { input: { orFilters: [{ and: [{ field: 'privileges', values: ['x'] }] }] } })).errors?.[0]?.message).toContain(
      "'state' and 'type' only",
    );
    expect((await run(GRANTED, { input: { actorUrn: 'urn:li:corpuser:other' } }, stew)).errors?.[0]?.message).toBe(
      'Unauthorized to get privileges for the given author.',
    );
  });
});
