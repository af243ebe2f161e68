import { sqliteTestDatabases } from '@mds/db/testing';
import { ApiError, type ApiContext } from '@mds/schema';
import { graphql } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';
import { DATASET, deactivateAllUsersPolicies, facesOn, mcp, OTHER } from '../faces';
import { schemaOf } from '../graphql/schema';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

/** The actor of every row: a user without any role privilege, so only a stored policy can let it in. */
const NORA = 'urn:li:corpuser:nora';
const nora: ApiContext = { actor: { urn: NORA, privileges: new Set() }, requestId: 'policy-table' };
const ENG = 'urn:li:corpGroup:eng';
const MARKETING = 'urn:li:domain:marketing';
const SHOP = 'urn:li:container:shop';
const TECHNICAL = 'urn:li:ownershipType:__system__technical_owner';

interface Setup {
  /** `dataHubPolicyInfo.actors` (DataHub's DataHubActorFilter). */
  actors: Record<string, unknown>;
  /** `dataHubPolicyInfo.resources`; absent: every resource. */
  resources?: Record<string, unknown>;
  privileges?: string[];
  state?: 'ACTIVE' | 'INACTIVE';
  /** Aspects of NORA (memberships) and of DATASET (owners, domain, container) the row needs. */
  nora?: Record<string, unknown>;
  dataset?: Record<string, unknown>;
  /** Keep DataHub's default policies for all users active (the other rows deactivate them, as an operator may). */
  allUsersDefaults?: boolean;
}

const filter = (field: string, values: string[], condition = 'EQUALS') => ({ filter: { criteria: [{ field, values, condition }] } });
const everyone = { allUsers: true };

/**
 * actor × group × ownership × resource filter × privilege → allow/deny. Each row stores one metadata policy (DataHub's
 * PolicyEngine decides: every criterion of the filter holds, and the actor is a listed user, a member of a listed
 * group, an owner — itself or through a group, of the listed ownership types —, or holds a listed role).
 */
const TABLE: [string, Setup, boolean | { write: boolean; read: boolean }][] = [
  ['a policy naming the user', { actors: { users: [NORA] } }, true],
  ['a policy naming another user', { actors: { users: ['urn:li:corpuser:someone'] } }, false],
  ['all users', { actors: everyone }, true],
  ['an INACTIVE policy', { actors: everyone, state: 'INACTIVE' }, false],
  // The rows below run with DataHub's default policies for all users deactivated; this one keeps them, as a new store
  // has them: everyone views (view-entity-page-all), nothing more.
  ['DataHub’s default policies for all users, alone', { actors: { users: [] }, allUsersDefaults: true }, { write: false, read: true }],
  ['a policy granting only VIEW_ENTITY_PAGE', { actors: everyone, privileges: ['VIEW_ENTITY_PAGE'] }, { write: false, read: true }],
  [
    'a group the user joined in mds (nativeGroupMembership)',
    { actors: { groups: [ENG] }, nora: { nativeGroupMembership: { nativeGroups: [ENG] } } },
    true,
  ],
  [
    'a group the user was ingested into (groupMembership)',
    { actors: { groups: [ENG] }, nora: { groupMembership: { groups: [ENG] } } },
    true,
  ],
  ['a group the user is not in', { actors: { groups: [ENG] }, nora: { groupMembership: { groups: ['urn:li:corpGroup:ops'] } } }, false],
  ['all groups, for a user in one', { actors: { allGroups: true }, nora: { groupMembership: { groups: [ENG] } } }, true],
  ['all groups, for a user in none', { actors: { allGroups: true } }, false],
  [
    'resource owners, the user owning through its group',
    {
      actors: { resourceOwners: true },
      nora: { groupMembership: { groups: [ENG] } },
      dataset: { ownership: { owners: [{ owner: ENG, type: 'TECHNICAL_OWNER', typeUrn: TECHNICAL }] } },
    },
    true,
  ],
  [
    'resource owners of another ownership type',
    {
      actors: { resourceOwners: true, resourceOwnersTypes: ['urn:li:ownershipType:__system__business_owner'] },
      nora: { groupMembership: { groups: [ENG] } },
      dataset: { ownership: { owners: [{ owner: ENG, type: 'TECHNICAL_OWNER', typeUrn: TECHNICAL }] } },
    },
    false,
  ],
  ['resource owners, the user owning nothing', { actors: { resourceOwners: true } }, false],
  [
    'a role the user holds (roleMembership)',
    { actors: { roles: ['urn:li:dataHubRole:Steward'] }, nora: { roleMembership: { roles: ['urn:li:dataHubRole:Steward'] } } },
    true,
  ],
  ['a role the user does not hold', { actors: { roles: ['urn:li:dataHubRole:Steward'] } }, false],
  ['type EQUALS dataset', { actors: everyone, resources: filter('TYPE', ['dataset']) }, true],
  ['type EQUALS chart', { actors: everyone, resources: filter('TYPE', ['chart']) }, false],
  ['the older form: type and resources', { actors: everyone, resources: { type: 'dataset', resources: [DATASET] } }, true],
  ['the older form, another urn', { actors: everyone, resources: { type: 'dataset', resources: [OTHER] } }, false],
  [
    'urn STARTS_WITH the platform',
    { actors: everyone, resources: filter('URN', ['urn:li:dataset:(urn:li:dataPlatform:hive,'], 'STARTS_WITH') },
    true,
  ],
  ['urn NOT_EQUALS the dataset', { actors: everyone, resources: filter('URN', [DATASET], 'NOT_EQUALS') }, false],
  ['urn NOT_EQUALS another', { actors: everyone, resources: filter('URN', [OTHER], 'NOT_EQUALS') }, true],
  ['tag EQUALS a tag of the dataset', { actors: everyone, resources: filter('TAG', ['urn:li:tag:pii']) }, true],
  ['tag EQUALS another tag', { actors: everyone, resources: filter('TAG', ['urn:li:tag:gold']) }, false],
  [
    'domain EQUALS its domain',
    { actors: everyone, resources: filter('DOMAIN', [MARKETING]), dataset: { domains: { domains: [MARKETING] } } },
    true,
  ],
  ['domain EQUALS, the dataset in none', { actors: everyone, resources: filter('DOMAIN', [MARKETING]) }, false],
  [
    'container EQUALS its container',
    { actors: everyone, resources: filter('CONTAINER', [SHOP]), dataset: { container: { container: SHOP } } },
    true,
  ],
  [
    'every criterion must hold',
    {
      actors: everyone,
      resources: {
        filter: { criteria: [...filter('TYPE', ['dataset']).filter.criteria, ...filter('TAG', ['urn:li:tag:gold']).filter.criteria] },
      },
    },
    false,
  ],
];

/** The faces on a fresh database holding the row's policy and aspects, with GraphQL reads restricted (VIEW_AUTHORIZATION_ENABLED). */
async function withRow(setup: Setup) {
  const faces = await facesOn(databases, { restApi: true, view: true });
  if (!setup.allUsersDefaults) await deactivateAllUsersPolicies(faces.service);
  const proposal = (entityUrn: string, aspectName: string, value: unknown) => ({
    proposal: { ...mcp(entityUrn, aspectName, value), entityType: entityUrn.split(':')[2] },
    place: { action: 'test', path: aspectName },
  });
  const info = {
    displayName: 'row',
    description: 'the row of the table',
    type: 'METADATA',
    state: setup.state ?? 'ACTIVE',
    privileges: setup.privileges ?? ['EDIT_ENTITY'],
    actors: { resourceOwners: false, allUsers: false, allGroups: false, ...setup.actors },
    editable: true,
    ...(setup.resources ? { resources: { allResources: false, ...setup.resources } } : {}),
  };
  await faces.service.ingest(
    SYSTEM_ACTOR,
    [
      proposal('urn:li:dataHubPolicy:row', 'dataHubPolicyInfo', info),
      proposal('urn:li:tag:gold', 'tagProperties', { name: 'gold' }),
      ...Object.entries(setup.nora ?? {}).map(([aspect, value]) => proposal(NORA, aspect, value)),
      ...Object.entries(setup.dataset ?? {}).map(([aspect, value]) => proposal(DATASET, aspect, value)),
    ],
    { batch: true },
  );
  return faces;
}

const allowed = async (call: () => Promise<unknown>): Promise<boolean> => {
  try {
    await call();
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return false;
    throw error;
  }
};

describe('stored dataHubPolicy entities decide for every face (DataHub’s PolicyEngine)', () => {
  it.each(TABLE)('%s', async (_name, setup, outcome) => {
    const expected = typeof outcome === 'boolean' ? outcome : outcome.write;
    const readable = typeof outcome === 'boolean' ? outcome : outcome.read;
    const { action, route, service, search } = await withRow(setup);
    const schema = schemaOf(createEntityGraphql({ service, search }));
    const run = async (source: string) => {
      const result = await graphql({ schema, source, contextValue: nora });
      if (result.errors?.length) throw result.errors[0]!.originalError ?? new Error(result.errors[0]!.message);
      return result.data;
    };

    // Rest.li: ingestProposal asks EDIT_ENTITY on the entity written.
    expect(await allowed(() => action('aspects', 'ingestProposal', { proposal: mcp(DATASET, 'status', { removed: false }) }, nora))).toBe(
      expected,
    );
    // OpenAPI v3: a batch write asks the same.
    const written = await route(
      'POST',
      '/openapi/v3/entity/{entityName}',
      { params: { entityName: 'dataset' }, query: 'async=false', body: [{ urn: DATASET, status: { value: { removed: false } } }] },
      nora,
    ).then(
      (answer) => answer.status === 200,
      (error: unknown) => (error instanceof ApiError && error.status === 403 ? false : Promise.reject(error)),
    );
    expect(written).toBe(expected);
    // GraphQL: addTag asks EDIT_ENTITY or EDIT_ENTITY_TAGS (DataHub's AddTagResolver).
    expect(await allowed(() => run(`mutation { addTag(input: { tagUrn: "urn:li:tag:gold", resourceUrn: "${DATASET}" }) }`))).toBe(expected);
    // GraphQL read with VIEW_AUTHORIZATION_ENABLED: a dataset shows to holders of VIEW_ENTITY_PAGE, EDIT_ENTITY or
    // DELETE_ENTITY on it, and reads as absent to others.
    const read = (await run(`{ dataset(urn: "${DATASET}") { urn } }`)) as { dataset: { urn: string } | null };
    expect(read.dataset).toEqual(readable ? { urn: DATASET } : null);
  });

  it('a policy is seen by the very next decision after it is written, and not after it is made INACTIVE', async () => {
    const faces = await withRow({ actors: { users: ['urn:li:corpuser:someone'] } });
    const decide = () => faces.service.allows(nora.actor, [['EDIT_ENTITY']], DATASET);
    expect(await decide()).toBe(false);
    const write = (state: string) =>
      faces.service.ingest(
        SYSTEM_ACTOR,
        [
          {
            proposal: {
              ...mcp('urn:li:dataHubPolicy:late', 'dataHubPolicyInfo', {
                displayName: 'late',
                description: '',
                type: 'METADATA',
                state,
                privileges: ['EDIT_ENTITY'],
                actors: { users: [NORA], resourceOwners: false, allUsers: false, allGroups: false },
                editable: true,
              }),
              entityType: 'dataHubPolicy',
            },
            place: { action: 'test', path: 'late' },
          },
        ],
        { batch: true },
      );
    await write('ACTIVE');
    expect(await decide()).toBe(true);
    await write('INACTIVE');
    expect(await decide()).toBe(false);
  });

  it('a policy without a resource filter grants a platform privilege; one with a filter does not (no resource to select)', async () => {
    const faces = await withRow({ actors: { users: [NORA] }, privileges: ['MANAGE_DOMAINS'], resources: filter('TYPE', ['domain']) });
    expect(await faces.service.allows(nora.actor, [['MANAGE_DOMAINS']])).toBe(false);
    const platform = await withRow({ actors: { users: [NORA] }, privileges: ['MANAGE_DOMAINS'] });
    expect(await platform.service.allows(nora.actor, [['MANAGE_DOMAINS']])).toBe(true);
    expect(await platform.service.policy.granted(nora.actor, DATASET)).toContain('MANAGE_DOMAINS');
  });
});
