import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEntities, createEntityGraphql, ALL_USERS_POLICIES } from '../../src/index';
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
      // The policy's privilege, and what DataHub's default policies for all users grant everyone (policy 7,
      // view-entity-page-all, view-dataset-sensitive).
      privileges: [
        'EDIT_ENTITY_DOCS',
        'ES_EXPLAIN_QUERY_PRIVILEGE',
        'GENERATE_PERSONAL_ACCESS_TOKENS',
        'GET_COUNTS_PRIVILEGE',
        'GET_ENTITY_PRIVILEGE',
        'GET_TIMELINE_PRIVILEGE',
        'GET_TIMESERIES_ASPECT_PRIVILEGE',
        'SEARCH_PRIVILEGE',
        'VIEW_ANALYTICS',
        'VIEW_DATASET_OPERATIONS',
        'VIEW_DATASET_PROFILE',
        'VIEW_DATASET_USAGE',
        'VIEW_ENTITY_PAGE',
      ],
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
    // DataHub's default policies for all users are listed too (a new store holds them), after the two created here on no page.
    const total = ALL_USERS_POLICIES.length + 2;
    const all = (await ok(LIST, { input: { start: 0, count: 100, query: '', orFilters: [] } })).listPolicies;
    expect(all).toMatchObject({ start: 0, count: total, total });
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
    expect((await page({ count: 1 })).listPolicies).toMatchObject({ count: 1, total });
    const inactive = await page({ orFilters: [{ and: [{ field: 'state', values: ['INACTIVE'] }] }] });
    expect(inactive.listPolicies.policies.map((p: { name: string }) => p.name)).toEqual(['Tagged pii']);
    const active = await page({ count: 100, orFilters: [{ and: [{ field: 'state', values: ['ACTIVE'] }] }] });
    expect(active.listPolicies.policies.map((p: { urn: string }) => p.urn).sort()).toEqual(
      [first, ...ALL_USERS_POLICIES.map((p) => p.urn)].sort(),
    );
  });

  it("lists DataHub's default policies for all users as its boot file states them, editable like any other", async () => {
    const { ok, service } = await setup();
    const listed = (await ok(LIST, { input: { start: 0, count: 100 } })).listPolicies.policies as {
      urn: string;
      name: string;
      state: string;
      editable: boolean;
      privileges: string[];
    }[];
    const byUrn = new Map(listed.map((p) => [p.urn, p]));
    for (const { urn, info } of ALL_USERS_POLICIES) {
      expect(byUrn.get(urn)).toMatchObject({
        name: info.displayName,
        state: 'ACTIVE',
        editable: info.editable,
        privileges: info.privileges,
      });
    }
    expect(
      listed
        .filter((p) => p.editable)
        .map((p) => p.name)
        .sort(),
    ).toEqual(['All Users - Base Platform Privileges', 'All Users - View Dataset Sensitive Information', 'All Users - View Entity Page']);

    // An editable one, deactivated as the UI does: the user without a role loses what it granted, from the next decision.
    const sensitive = ALL_USERS_POLICIES.find((p) => p.urn === 'urn:li:dataHubPolicy:view-dataset-sensitive')!;
    expect(await service.allows(stew.actor, [[Privilege.VIEW_DATASET_PROFILE]], DATASET)).toBe(true);
    const info = sensitive.info as { displayName: string; description: string; type: string; privileges: string[] };
    const deactivated = {
      type: info.type,
      name: info.displayName,
      state: 'INACTIVE',
      description: info.description,
      privileges: info.privileges,
      actors: { allUsers: true, allGroups: false, resourceOwners: false, users: [], groups: [] },
    };
    expect(await ok(UPDATE, { urn: sensitive.urn, input: deactivated })).toEqual({ updatePolicy: sensitive.urn });
    expect(await service.allows(stew.actor, [[Privilege.VIEW_DATASET_PROFILE]], DATASET)).toBe(false);
    expect(await service.allows(stew.actor, [[Privilege.VIEW_ENTITY_PAGE]], DATASET)).toBe(true);
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
