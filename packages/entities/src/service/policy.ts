import { Privilege, privilegesOfRoles, RESOURCE_OWNER_PRIVILEGES } from '@mds/auth';
import { urnTypeOf } from '@mds/core';
import type { Actor } from '@mds/schema';
import { grantedBy, whyNotApplicable, type ActorFacts, type ResourceFacts, type StoredPolicy } from './policies/engine';

/**
 * Privileges as DataHub's authorizer is asked for them (DisjunctivePrivilegeGroup): any one group suffices, and a group
 * needs every privilege in it. `[[EDIT_ENTITY], [EDIT_ENTITY_TAGS]]` is "EDIT_ENTITY, or EDIT_ENTITY_TAGS".
 */
export type PrivilegeGroups = readonly (readonly Privilege[])[];

/** What is asked: privileges, on one entity (`resource`) or on the platform (no resource: ownership grants nothing). */
export interface AccessRequest {
  privileges: PrivilegeGroups;
  resource?: string;
}

/** DataHub's switches (metadata-service/configuration application.yaml, `authorization:`). */
export interface AuthorizationSwitches {
  /** REST_API_AUTHORIZATION_ENABLED, default true: Rest.li and OpenAPI reads, writes and deletes are checked. */
  restApi: boolean;
  /** VIEW_AUTHORIZATION_ENABLED, default false: GraphQL reads of the view-restricted entity types are checked. */
  view: boolean;
}

export const DATAHUB_DEFAULT_SWITCHES: AuthorizationSwitches = Object.freeze({ restApi: true, view: false });

/** Operations of DataHub's entity APIs (its ApiOperation), each asking for its privileges. */
export type EntityOperation = 'READ' | 'EXISTS' | 'CREATE' | 'UPDATE' | 'DELETE';

const { VIEW_ENTITY_PAGE, EDIT_ENTITY, DELETE_ENTITY, GET_ENTITY, EXISTS_ENTITY, CREATE_ENTITY, SEARCH } = Privilege;
/** DataHub's PoliciesConfig.API_PRIVILEGE_MAP for the ENTITY group: the same for every entity type mds stores. */
const ENTITY_API: Readonly<Record<EntityOperation, PrivilegeGroups>> = {
  READ: [[VIEW_ENTITY_PAGE], [GET_ENTITY], [EDIT_ENTITY], [DELETE_ENTITY]],
  EXISTS: [[EXISTS_ENTITY], [EDIT_ENTITY], [DELETE_ENTITY], [VIEW_ENTITY_PAGE], [SEARCH]],
  CREATE: [[CREATE_ENTITY], [EDIT_ENTITY]],
  UPDATE: [[EDIT_ENTITY]],
  DELETE: [[DELETE_ENTITY]],
};

/** The entity types whose GraphQL reads VIEW_AUTHORIZATION_ENABLED restricts (DataHub's AuthUtil.VIEW_RESTRICTED_ENTITY_TYPES). */
const VIEW_RESTRICTED = new Set([
  'dataset',
  'dashboard',
  'chart',
  'mlModel',
  'mlFeature',
  'mlModelGroup',
  'mlFeatureTable',
  'mlPrimaryKey',
  'dataFlow',
  'dataJob',
  'glossaryTerm',
  'glossaryNode',
  'domain',
  'dataProduct',
  'notebook',
]);

/** Time-series aspects a GraphQL read shows only to holders of a privilege on the entity (DataHub's resolvers). */
const VIEWED_WITH: Readonly<Record<string, Privilege>> = {
  datasetProfile: Privilege.VIEW_DATASET_PROFILE,
};

/** The owners of each of `urns` (their `ownership` aspect); an urn with none is absent. */
export type OwnersOf = (urns: readonly string[]) => Promise<ReadonlyMap<string, ReadonlySet<string>>>;

/** The stored policy model (`dataHubPolicy` entities, memberships, the facts of resources), read through the store. */
export interface PolicySource {
  /** The ACTIVE stored policies: the same answer until the next commit, so a decision reads nothing new. */
  policies(): Promise<readonly StoredPolicy[]>;
  actor(urn: string): Promise<ActorFacts>;
  resource(urn: string): Promise<ResourceFacts>;
}

/**
 * The one answer to "may this actor do this": every face and domain package asks here, through the entity service.
 * The role table of `@mds/auth` grants privileges everywhere; DataHub's default "Asset Owners - Metadata Policy"
 * (`policies.json`, `resourceOwners: true`) grants the owners of an entity RESOURCE_OWNER_PRIVILEGES on it (owners
 * directly; owning through a group is a stored policy's `resourceOwners`, below). Each privilege of a group is granted by either, as DataHub's
 * authorizer evaluates each privilege against every policy.
 *
 * Stored `dataHubPolicy` entities (DataHub's policy model, policies/engine.ts) grant the privileges they name to the
 * actors they match (users, groups, all users, all groups, resource owners by ownership type, roles held through
 * `roleMembership`) on the resources their filter selects (type, urn, tag, domain, container; EQUALS, STARTS_WITH,
 * NOT_EQUALS), platform policies on the platform. Each privilege of a group may come from a different source.
 *
 * The role decides without a read; when it does not, the stored policies are read (once per commit, `PolicySource`),
 * and only when one of them or ownership could complete a group are the actor's memberships and the resource read.
 * The faces only ever name privileges and pass their error texts.
 */
export interface Policy {
  readonly switches: AuthorizationSwitches;
  /** Whether the actor holds one group of the privileges (on the resource, when one is named). */
  authorize(actor: Actor, request: AccessRequest): boolean | Promise<boolean>;
  /** The resources among `resources` on which the actor holds none of the groups, in order (none refused: []). */
  refused(actor: Actor, privileges: PrivilegeGroups, resources: readonly string[]): string[] | Promise<string[]>;
  /** Every privilege the actor holds (on the resource, when one is named): DataHub's getGrantedPrivileges. */
  granted(actor: Actor, resource?: string): Promise<string[]>;
  /** What the stored model says of a user: its groups, its own roles and its groups' (DataHub's resolved actor). */
  actorFacts(urn: string): Promise<ActorFacts>;
  /**
   * DataHub's getGrantedPrivileges for any user, not only the caller: what its roles (its own and its groups'),
   * ownership and the stored policies give it (on the resource, when one is named), and for each stored policy that
   * gives it nothing, why (DataHub's evaluation details).
   */
  evaluate(userUrn: string, resource?: string): Promise<{ privileges: string[]; denied: { policyName: string; reason: string }[] }>;
  /** What DataHub's Rest.li and OpenAPI ask for an operation on entities; null when REST_API_AUTHORIZATION_ENABLED is off. */
  restApi(operation: EntityOperation): PrivilegeGroups | null;
  /** What a GraphQL read of `urn` asks; null when anyone may read it (VIEW_AUTHORIZATION_ENABLED off, or a type it leaves open). */
  graphqlView(urn: string): PrivilegeGroups | null;
  /** What reading the points of a time-series aspect asks beyond reading the entity; null: nothing more. */
  timeseriesView(aspect: string): PrivilegeGroups | null;
}

/** A request for `privileges` groups: EDIT_ENTITY alone, or every privilege listed (DataHub's *Utils: ALL_PRIVILEGES_GROUP or the specific ones). */
export const editPrivileges = (privileges: readonly Privilege[]): PrivilegeGroups =>
  privileges.length && !privileges.includes(EDIT_ENTITY) ? [[EDIT_ENTITY], privileges] : [[EDIT_ENTITY]];

/** Any one of `privileges` (a platform privilege of several names: CREATE_TAGS or MANAGE_TAGS). */
export const anyOf = (...privileges: Privilege[]): PrivilegeGroups => privileges.map((p) => [p]);

/** An actor the store says nothing of: no group, no role. */
const emptyFacts = (urn: string): ActorFacts => ({ urn, groups: new Set(), roles: new Set(), ownRoles: new Set(), groupRoles: new Map() });

export function createPolicy(options: { switches?: AuthorizationSwitches; ownersOf: OwnersOf; source?: PolicySource }): Policy {
  const switches = options.switches ?? DATAHUB_DEFAULT_SWITCHES;
  const { ownersOf, source } = options;

  const byRole = (actor: Actor, privileges: PrivilegeGroups) => privileges.some((group) => group.every((p) => actor.privileges.has(p)));
  /** Whether owning the resource completes a group the role leaves open. */
  const byOwnership = (actor: Actor, privileges: PrivilegeGroups) =>
    privileges.some((group) => group.every((p) => actor.privileges.has(p) || RESOURCE_OWNER_PRIVILEGES.has(p)));
  /** Of the stored policies, those naming any of the privileges asked (none: the role and ownership decide alone). */
  const naming = (policies: readonly StoredPolicy[], privileges: PrivilegeGroups): readonly StoredPolicy[] => {
    const asked = new Set<string>(privileges.flat());
    return policies.filter((policy) => [...policy.privileges].some((p) => asked.has(p)));
  };
  /** Whether the role, the owners' rule and the policies' grants together complete one group. */
  const completes = (actor: Actor, privileges: PrivilegeGroups, granted: ReadonlySet<string>, owner: boolean) =>
    privileges.some((group) =>
      group.every((p) => actor.privileges.has(p) || granted.has(p) || (owner && RESOURCE_OWNER_PRIVILEGES.has(p))),
    );

  /**
   * What the stored policies for all users with no resource filter grant anyone anywhere (the all-users defaults):
   * decided without reading the actor or the resource, once per list of stored policies (once per commit).
   */
  const everyone = new WeakMap<readonly StoredPolicy[], ReadonlySet<string>>();
  const grantedToEveryone = (policies: readonly StoredPolicy[]) => {
    let granted = everyone.get(policies);
    if (!granted) {
      const unconditional = policies.filter((policy) => policy.actors.allUsers && policy.criteria === null);
      granted = grantedBy(unconditional, emptyFacts(''), undefined);
      everyone.set(policies, granted);
    }
    return granted;
  };

  const byOwnersOnly = (actor: Actor, privileges: PrivilegeGroups, distinct: string[]) => {
    if (!byOwnership(actor, privileges)) return distinct;
    return ownersOf(distinct).then((owners) => distinct.filter((urn) => !owners.get(urn)?.has(actor.urn)));
  };

  const refused: Policy['refused'] = (actor, privileges, resources) => {
    if (byRole(actor, privileges) || resources.length === 0) return [];
    const distinct = [...new Set(resources)];
    if (!source) return byOwnersOnly(actor, privileges, distinct);
    return source.policies().then(async (stored) => {
      const policies = naming(stored, privileges);
      if (policies.length === 0) return byOwnersOnly(actor, privileges, distinct);
      if (completes(actor, privileges, grantedToEveryone(stored), false)) return [];
      const facts = await source.actor(actor.urn);
      const refusedHere: string[] = [];
      for (const urn of distinct) {
        const resource = await source.resource(urn);
        const owner = resource.owners.some((o) => o.owner === actor.urn);
        if (!completes(actor, privileges, grantedBy(policies, facts, resource), owner)) refusedHere.push(urn);
      }
      return refusedHere;
    });
  };

  /** A platform question: the role, or a policy that applies with no resource named (platform ones, unfiltered ones). */
  const onPlatform = async (actor: Actor, privileges: PrivilegeGroups) => {
    if (!source) return false;
    const stored = await source.policies();
    const policies = naming(stored, privileges);
    if (policies.length === 0) return false;
    if (completes(actor, privileges, grantedToEveryone(stored), false)) return true;
    return completes(actor, privileges, grantedBy(policies, await source.actor(actor.urn), undefined), false);
  };

  const granted: Policy['granted'] = async (actor, resource) => {
    const held = new Set<string>(actor.privileges);
    if (resource !== undefined) {
      if ((await ownersOf([resource])).get(resource)?.has(actor.urn)) for (const p of RESOURCE_OWNER_PRIVILEGES) held.add(p);
    }
    if (source) {
      const facts = resource === undefined ? undefined : await source.resource(resource);
      for (const p of grantedBy(await source.policies(), await source.actor(actor.urn), facts)) held.add(p);
    }
    return [...held].sort();
  };

  return {
    switches,
    authorize(actor, { privileges, resource }) {
      if (byRole(actor, privileges)) return true;
      if (resource === undefined) return source ? onPlatform(actor, privileges) : false;
      const answer = refused(actor, privileges, [resource]);
      return Array.isArray(answer) ? answer.length === 0 : answer.then((r) => r.length === 0);
    },
    refused,
    granted,
    async evaluate(userUrn, resource) {
      const facts = source ? await source.actor(userUrn) : emptyFacts(userUrn);
      const privileges = await granted({ urn: userUrn, privileges: privilegesOfRoles(userUrn, [...facts.roles]) }, resource);
      if (!source) return { privileges, denied: [] };
      const resourceFacts = resource === undefined ? undefined : await source.resource(resource);
      const denied = (await source.policies()).flatMap((policy) => {
        const reason = whyNotApplicable(policy, facts, resourceFacts);
        return reason ? [{ policyName: policy.name, reason }] : [];
      });
      return { privileges, denied: denied.sort((a, b) => a.policyName.localeCompare(b.policyName)) };
    },
    actorFacts: (urn) => (source ? source.actor(urn) : Promise.resolve(emptyFacts(urn))),
    restApi: (operation) => (switches.restApi ? ENTITY_API[operation] : null),
    graphqlView(urn) {
      if (!switches.view) return null;
      const type = urnTypeOf(urn);
      return type !== undefined && VIEW_RESTRICTED.has(type) ? ENTITY_API.READ : null;
    },
    timeseriesView: (aspect) => (Object.hasOwn(VIEWED_WITH, aspect) ? [[VIEWED_WITH[aspect]!]] : null),
  };
}
