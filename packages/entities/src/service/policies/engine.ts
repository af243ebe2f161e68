import { urnTypeOf } from '@mds/core';

/**
 * DataHub's policy model as stored (`dataHubPolicyInfo` of a `dataHubPolicy` entity, metadata-models
 * com.linkedin.policy): who (actors), on what (resources), which privileges. Only ACTIVE policies are kept; a stored
 * value that does not parse as a policy grants nothing (it was validated when written).
 */
export interface StoredPolicy {
  urn: string;
  /** Its `displayName` (the urn when it has none): what DataHub's evaluation details name it by. */
  name: string;
  type: 'PLATFORM' | 'METADATA';
  privileges: ReadonlySet<string>;
  actors: {
    users: ReadonlySet<string>;
    groups: ReadonlySet<string>;
    roles: ReadonlySet<string>;
    allUsers: boolean;
    allGroups: boolean;
    resourceOwners: boolean;
    /** Only owners of these ownership types count; null: any owner. */
    resourceOwnersTypes: ReadonlySet<string> | null;
  };
  /** Every criterion must hold; null: no resource filter (any resource, and requests naming none). */
  criteria: readonly Criterion[] | null;
}

export interface Criterion {
  field: string;
  values: readonly string[];
  condition: string;
}

/** What the engine knows of the actor: the groups it belongs to, and its roles (its own and its groups'). */
export interface ActorFacts {
  urn: string;
  groups: ReadonlySet<string>;
  /** Every role held: `ownRoles` and the roles of its groups. */
  roles: ReadonlySet<string>;
  /** The roles of the actor's own `roleMembership`. */
  ownRoles: ReadonlySet<string>;
  /** The actor's groups that hold a role, with their roles (DataHub's groupsWithRoles, rolesViaGroups). */
  groupRoles: ReadonlyMap<string, ReadonlySet<string>>;
}

/** What a resource filter and an owners' policy look at: DataHub's resolved entity spec, for the fields mds stores. */
export interface ResourceFacts {
  urn: string;
  type: string;
  owners: readonly { owner: string; typeUrn?: string }[];
  tags: readonly string[];
  domains: readonly string[];
  containers: readonly string[];
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** The policy a `dataHubPolicyInfo` value states; undefined when it is INACTIVE (or not a policy at all). */
export function parsePolicy(urn: string, value: Record<string, unknown>): StoredPolicy | undefined {
  if (value.state !== 'ACTIVE' || (value.type !== 'PLATFORM' && value.type !== 'METADATA')) return undefined;
  const actors = record(value.actors);
  const ownerTypes = actors.resourceOwnersTypes;
  return {
    urn,
    name: typeof value.displayName === 'string' ? value.displayName : urn,
    type: value.type,
    privileges: new Set(strings(value.privileges)),
    actors: {
      users: new Set(strings(actors.users)),
      groups: new Set(strings(actors.groups)),
      roles: new Set(strings(actors.roles)),
      allUsers: actors.allUsers === true,
      allGroups: actors.allGroups === true,
      resourceOwners: actors.resourceOwners === true,
      resourceOwnersTypes: Array.isArray(ownerTypes) ? new Set(strings(ownerTypes)) : null,
    },
    criteria: value.resources === undefined ? null : criteriaOf(record(value.resources)),
  };
}

/** The filter's criteria; a filter written before `filter` existed states them as `type`, `resources` and `allResources`. */
function criteriaOf(resources: Record<string, unknown>): Criterion[] {
  const filter = record(resources.filter);
  if (resources.filter !== undefined) {
    return (Array.isArray(filter.criteria) ? filter.criteria : []).map((c) => {
      const criterion = record(c);
      return {
        field: typeof criterion.field === 'string' ? criterion.field.toUpperCase() : '',
        values: strings(criterion.values),
        condition: typeof criterion.condition === 'string' ? criterion.condition : 'EQUALS',
      };
    });
  }
  const criteria: Criterion[] = [];
  if (typeof resources.type === 'string') criteria.push({ field: 'TYPE', values: [resources.type], condition: 'EQUALS' });
  if (Array.isArray(resources.resources) && resources.allResources !== true)
    criteria.push({ field: 'URN', values: strings(resources.resources), condition: 'EQUALS' });
  return criteria;
}

/** The values of a resource's field that a criterion compares (DataHub's EntityFieldType; RESOURCE_* are the older names). */
function fieldValues(field: string, resource: ResourceFacts): readonly string[] {
  switch (field) {
    case 'TYPE':
    case 'RESOURCE_TYPE':
      return [resource.type];
    case 'URN':
    case 'RESOURCE_URN':
      return [resource.urn];
    case 'TAG':
      return resource.tags;
    case 'DOMAIN':
      return resource.domains;
    case 'CONTAINER':
      return resource.containers;
    case 'OWNER':
      return resource.owners.map((o) => o.owner);
    default:
      // GROUP_MEMBERSHIP, DATA_PLATFORM_INSTANCE and unknown fields: no values, so EQUALS never holds.
      return [];
  }
}

function criterionHolds({ field, values, condition }: Criterion, resource: ResourceFacts): boolean {
  const found = fieldValues(field, resource);
  switch (condition) {
    case 'EQUALS':
      return values.some((v) => found.includes(v));
    case 'STARTS_WITH':
      return values.some((v) => found.some((f) => f.startsWith(v)));
    case 'NOT_EQUALS':
      return !values.some((v) => found.includes(v));
    default:
      return false;
  }
}

/** Whether the policy's resource side admits the request: platform policies any, a filter only a resource it selects. */
export function resourceMatches(policy: StoredPolicy, resource: ResourceFacts | undefined): boolean {
  if (policy.type === 'PLATFORM' || policy.criteria === null) return true;
  if (resource === undefined) return false;
  return policy.criteria.every((criterion) => criterionHolds(criterion, resource));
}

/** Whether the policy's actor side names the actor: as a user, through a group, as an owner (itself or a group), by role. */
export function actorMatches(policy: StoredPolicy, actor: ActorFacts, resource: ResourceFacts | undefined): boolean {
  const { actors } = policy;
  if (actors.allUsers || actors.users.has(actor.urn)) return true;
  if ((actors.allGroups && actor.groups.size > 0) || [...actor.groups].some((g) => actors.groups.has(g))) return true;
  if (actors.resourceOwners && resource !== undefined) {
    const owners = resource.owners.filter((o) => actors.resourceOwnersTypes === null || actors.resourceOwnersTypes.has(o.typeUrn ?? ''));
    if (owners.some((o) => o.owner === actor.urn || actor.groups.has(o.owner))) return true;
  }
  return [...actor.roles].some((role) => actors.roles.has(role));
}

/** The privileges the policies grant the actor (on the resource, when one is named). */
export function grantedBy(policies: readonly StoredPolicy[], actor: ActorFacts, resource: ResourceFacts | undefined): Set<string> {
  const granted = new Set<string>();
  for (const policy of policies) {
    if (resourceMatches(policy, resource) && actorMatches(policy, actor, resource)) for (const p of policy.privileges) granted.add(p);
  }
  return granted;
}

/** Why a policy grants nothing to an actor (on a resource), in DataHub's words (PolicyEngine.isPolicyApplicable). */
export function whyNotApplicable(policy: StoredPolicy, actor: ActorFacts, resource: ResourceFacts | undefined): string | undefined {
  if (!resourceMatches(policy, resource)) return 'Resource does not match';
  if (!actorMatches(policy, actor, resource)) return 'Actor did not match';
  return undefined;
}

/** The facts of a resource from its stored aspects (`ownership`, `globalTags`, `domains`, `container`). */
export function resourceFacts(urn: string, aspects: ReadonlyMap<string, { value: Record<string, unknown> }> | undefined): ResourceFacts {
  const value = (name: string) => aspects?.get(name)?.value ?? {};
  const owners = (Array.isArray(value('ownership').owners) ? (value('ownership').owners as unknown[]) : []).flatMap((o) => {
    const owner = record(o);
    return typeof owner.owner === 'string'
      ? [{ owner: owner.owner, ...(typeof owner.typeUrn === 'string' ? { typeUrn: owner.typeUrn } : {}) }]
      : [];
  });
  const tags = (Array.isArray(value('globalTags').tags) ? (value('globalTags').tags as unknown[]) : []).flatMap((t) => {
    const tag = record(t).tag;
    return typeof tag === 'string' ? [tag] : [];
  });
  const container = value('container').container;
  return {
    urn,
    type: urnTypeOf(urn) ?? '',
    owners,
    tags,
    domains: strings(value('domains').domains),
    containers: typeof container === 'string' ? [container] : [],
  };
}

/** The aspects `resourceFacts` reads. */
export const RESOURCE_ASPECTS = ['ownership', 'globalTags', 'domains', 'container'] as const;
/** The aspects of a user (and of its groups) that membership and roles are read from. */
export const MEMBERSHIP_ASPECTS = ['groupMembership', 'nativeGroupMembership', 'roleMembership'] as const;
