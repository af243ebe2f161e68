import { Privilege, privilegesOfRoles, ROLES } from '@mds/auth';
import { isJsonObject, urnTypeOf } from '@mds/core';
import { badRequest, forbidden, type ApiContext, type MutationResolvers, type QueryResolvers, type Resolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, type EntityService } from '../service';
import { aspectValue, pageOrRefuse, refWithKey, type Loaders } from './common-fields';
import { writeAll } from './mutation-support';

const MANAGE = anyOf(Privilege.MANAGE_POLICIES);
const DEBUG_ACCESS = anyOf(Privilege.MANAGE_USERS_AND_GROUPS);
const USER_PREFIX = 'urn:li:corpuser:';
/** A user urn named by a field, else a 400 naming it. */
const requireUserUrn = (urn: string, field: string) => {
  if (!urn.startsWith(USER_PREFIX) || urn.length === USER_PREFIX.length || urnTypeOf(urn) !== 'corpuser')
    throw badRequest(`Field '${field}': '${urn}' is not a user urn; expected ${USER_PREFIX}<id>.`);
  return urn;
};
/** DataHub's text for a caller without MANAGE_POLICIES (its policy resolvers). */
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
const POLICY_PREFIX = 'urn:li:dataHubPolicy:';

type Json = Record<string, unknown>;
const strings = (value: unknown): string[] | null =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;

/** A stored `dataHubPolicyInfo` as DataHub's PolicyInfoPolicyMapper answers it (a criterion's values with their entities). */
function toPolicy(urn: string, info: Json) {
  const actors = isJsonObject(info.actors) ? info.actors : {};
  const resources = isJsonObject(info.resources) ? info.resources : undefined;
  const filter = (value: unknown) =>
    isJsonObject(value)
      ? {
          criteria: (Array.isArray(value.criteria) ? value.criteria.filter(isJsonObject) : []).map((c) => ({
            field: c.field,
            condition: c.condition ?? 'EQUALS',
            values: (strings(c.values) ?? []).map((v) => ({ value: v, entity: v.startsWith('urn:li:') ? (refWithKey(v) ?? null) : null })),
          })),
        }
      : null;
  const refs = (urns: string[] | null) => (urns ?? []).flatMap((u) => refWithKey(u) ?? []);
  const roles = strings(actors.roles);
  const ownerTypes = strings(actors.resourceOwnersTypes);
  return {
    urn,
    type: info.type,
    name: info.displayName,
    state: info.state,
    description: typeof info.description === 'string' ? info.description : null,
    privileges: strings(info.privileges) ?? [],
    editable: info.editable !== false,
    resources: resources && {
      type: typeof resources.type === 'string' ? resources.type : null,
      resources: strings(resources.resources),
      allResources: resources.allResources === true,
      filter: filter(resources.filter),
      privilegeConstraints: filter(resources.privilegeConstraints),
    },
    actors: {
      users: strings(actors.users),
      groups: strings(actors.groups),
      roles,
      allUsers: actors.allUsers === true,
      allGroups: actors.allGroups === true,
      resourceOwners: actors.resourceOwners === true,
      resourceOwnersTypes: ownerTypes,
      resolvedUsers: refs(strings(actors.users)),
      resolvedGroups: refs(strings(actors.groups)),
      resolvedOwnershipTypes: refs(ownerTypes),
      resolvedRoles: (roles ?? []).flatMap((urn) => {
        const role = ROLES.find((r) => r.urn === urn);
        return role ? [{ __typename: 'DataHubRole', urn, type: 'DATAHUB_ROLE', name: role.name, description: role.description }] : [];
      }),
    },
  };
}

interface CriterionInput {
  field: string;
  values: readonly string[];
  condition: string;
}
interface PolicyInput {
  type: string;
  name: string;
  state: string;
  description?: string | null;
  privileges: readonly string[];
  actors: {
    users?: readonly string[] | null;
    groups?: readonly string[] | null;
    resourceOwners: boolean;
    resourceOwnersTypes?: readonly string[] | null;
    allUsers: boolean;
    allGroups: boolean;
  };
  resources?: {
    type?: string | null;
    resources?: readonly string[] | null;
    allResources?: boolean | null;
    filter?: { criteria?: readonly CriterionInput[] | null } | null;
    privilegeConstraints?: { criteria?: readonly CriterionInput[] | null } | null;
  } | null;
}

/** The `dataHubPolicyInfo` an input states (DataHub's PolicyUpdateInputInfoMapper): absent lists stay absent. */
function toInfo(input: PolicyInput, now: number): Json {
  if (input.name.trim() === '') throw badRequest("Field 'name': a policy needs a name.");
  const some = <T>(value: T | null | undefined) => (value === null || value === undefined ? {} : value);
  const filter = (value: { criteria?: readonly CriterionInput[] | null } | null | undefined) =>
    value
      ? { criteria: (value.criteria ?? []).map((c) => ({ field: c.field, values: [...c.values], condition: c.condition })) }
      : undefined;
  const { actors, resources } = input;
  return {
    displayName: input.name,
    description: input.description ?? '',
    type: input.type,
    state: input.state,
    privileges: [...input.privileges],
    actors: {
      resourceOwners: actors.resourceOwners,
      allUsers: actors.allUsers,
      allGroups: actors.allGroups,
      ...(actors.users ? { users: [...actors.users] } : {}),
      ...(actors.groups ? { groups: [...actors.groups] } : {}),
      ...(actors.resourceOwnersTypes ? { resourceOwnersTypes: [...actors.resourceOwnersTypes] } : {}),
    },
    ...(resources
      ? {
          resources: {
            allResources: resources.allResources ?? false,
            ...some(resources.type ? { type: resources.type } : null),
            ...some(resources.resources ? { resources: [...resources.resources] } : null),
            ...some(resources.filter ? { filter: filter(resources.filter) } : null),
            ...some(resources.privilegeConstraints ? { privilegeConstraints: filter(resources.privilegeConstraints) } : null),
          },
        }
      : {}),
    editable: true,
    lastUpdatedTimestamp: now,
  };
}

/** The filters listPolicies takes: on `state` and `type`, values compared exactly (any value of a filter, every filter of a group). */
function policyFilter(
  orFilters:
    | readonly {
        and?: readonly { field: string; value?: string | null; values?: readonly string[] | null; negated?: boolean | null }[] | null;
      }[]
    | null
    | undefined,
) {
  const groups = (orFilters ?? []).map((group) =>
    (group.and ?? []).map((f) => {
      if (f.field !== 'state' && f.field !== 'type')
        throw badRequest(`Field 'orFilters': policies are filtered on 'state' and 'type' only, not '${f.field}'.`);
      const values = f.values?.length ? f.values : f.value != null ? [f.value] : [];
      return { field: f.field, values, negated: f.negated === true };
    }),
  );
  return (info: Json) =>
    groups.length === 0 || groups.some((and) => and.every((f) => f.values.includes(String(info[f.field])) !== f.negated));
}

/**
 * The `DataHubPolicy` entity, as a role's or another entity's edges reach it (DataHub's DataHubPolicyMapper): its
 * `dataHubPolicyInfo` as listPolicies shows it, with the policy's kind as `policyType` (`type` is the entity type).
 * A policy stored without that aspect is named by its urn's id and has no privileges, actors or resources.
 */
function policyEntityResolvers(loaders: Loaders): Resolvers {
  const infoOf = aspectValue(loaders);
  const policyOf = async (urn: string, context: ApiContext) => {
    const info = await infoOf(urn, 'dataHubPolicyInfo', context);
    return info ? toPolicy(urn, info) : undefined;
  };
  const field =
    <K extends keyof ReturnType<typeof toPolicy>>(key: K, absent: (urn: string) => unknown) =>
    async (parent: { urn: string }, _args: unknown, context: ApiContext) => {
      const policy = await policyOf(parent.urn, context);
      return (policy ? policy[key] : absent(parent.urn)) as never;
    };
  const none = () => null;
  return {
    DataHubPolicy: {
      name: field('name', (urn) => urn.slice(POLICY_PREFIX.length)),
      policyType: field('type', () => 'METADATA'),
      state: field('state', () => 'INACTIVE'),
      description: field('description', none),
      resources: field('resources', none),
      privileges: field('privileges', () => []),
      actors: field('actors', () => ({ resourceOwners: false, allUsers: false, allGroups: false })),
      editable: field('editable', () => true),
    },
  };
}

/**
 * Access policies (DataHub's policy resolvers): `listPolicies`, `createPolicy`, `updatePolicy`, `deletePolicy`, all
 * for holders of MANAGE_POLICIES, and `getGrantedPrivileges`. A policy is a `dataHubPolicy` entity whose
 * `dataHubPolicyInfo` the one policy evaluates from the next request on.
 */
export function policyResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers {
  const manage = (context: ApiContext) => service.authorize(context.actor, MANAGE, undefined, UNAUTHORIZED);
  const policyUrn = (urn: string) => {
    if (!urn.startsWith(POLICY_PREFIX) || urn.length === POLICY_PREFIX.length || urnTypeOf(urn) !== 'dataHubPolicy')
      throw badRequest(`Field 'urn': '${urn}' is not a policy urn; expected ${POLICY_PREFIX}<id>.`);
    return urn;
  };
  const write = async (context: ApiContext, urn: string, input: PolicyInput) => {
    const grant = await manage(context);
    await writeAll(service, grant, [{ urn, aspect: 'dataHubPolicyInfo', changeType: 'UPSERT', value: toInfo(input, now()) }]);
    return urn;
  };

  const Query: QueryResolvers = {
    listPolicies: async (_parent, { input }, context) => {
      await manage(context);
      const page = pageOrRefuse(input.start ?? 0, input.count ?? 20);
      const query = (input.query ?? '').trim().toLowerCase();
      const kept = policyFilter(input.orFilters);
      const stored = await service.latestOfType('dataHubPolicy', ['dataHubPolicyInfo']);
      const matching = [...stored].flatMap(([urn, aspects]) => {
        const info = aspects.get('dataHubPolicyInfo')?.value;
        if (!info || !kept(info)) return [];
        const text = `${String(info.displayName ?? '')}\n${String(info.description ?? '')}`.toLowerCase();
        return !query || query === '*' || text.includes(query) ? [toPolicy(urn, info)] : [];
      });
      const policies = matching.slice(page.start, page.start + page.count);
      return { start: page.start, count: policies.length, total: matching.length, policies } as never;
    },
    // DataHub's GetGrantedPrivilegesResolver: the caller's own, or anyone's for a holder of MANAGE_POLICIES, who may
    // also ask why each policy grants nothing (PolicyEngine's reasons of deny).
    getGrantedPrivileges: async (_parent, { input }, context) => {
      const managesPolicies = await service.allows(context.actor, MANAGE);
      if (input.actorUrn !== context.actor.urn && !managesPolicies) throw forbidden('Unauthorized to get privileges for the given author.');
      const resource = input.resourceSpec?.resourceUrn ?? undefined;
      const details = input.includeEvaluationDetails === true && managesPolicies;
      if (input.actorUrn === context.actor.urn && !details) return { privileges: await service.policy.granted(context.actor, resource) };
      const userUrn = requireUserUrn(input.actorUrn, 'actorUrn');
      const evaluation = await service.policy.evaluate(userUrn, resource);
      return {
        privileges: input.actorUrn === context.actor.urn ? await service.policy.granted(context.actor, resource) : evaluation.privileges,
        evaluationDetails: details ? evaluation.denied : null,
      };
    },

    // DataHub's DebugAccessResolver: MANAGE_USERS_AND_GROUPS; the user's roles, groups, and the policies naming them.
    debugAccess: async (_parent, { userUrn }, context) => {
      await service.authorize(context.actor, DEBUG_ACCESS, undefined, UNAUTHORIZED);
      const facts = await service.policy.actorFacts(requireUserUrn(userUrn, 'userUrn'));
      const roles = [...facts.ownRoles];
      const rolesViaGroups = [...new Set([...facts.groupRoles.values()].flatMap((held) => [...held]))];
      const allRoles = [...new Set([...roles, ...rolesViaGroups])];
      const names = (value: unknown) => new Set(strings(value) ?? []);
      const policies = [...(await service.latestOfType('dataHubPolicy', ['dataHubPolicyInfo']))].flatMap(([urn, aspects]) => {
        const info = aspects.get('dataHubPolicyInfo')?.value;
        const actors = info && isJsonObject(info.actors) ? info.actors : undefined;
        if (!info || !actors) return [];
        const [users, groups, policyRoles] = [names(actors.users), names(actors.groups), names(actors.roles)];
        const namesUser =
          actors.allUsers === true ||
          actors.allGroups === true ||
          users.has(userUrn) ||
          [...facts.groups].some((g) => groups.has(g)) ||
          allRoles.some((r) => policyRoles.has(r));
        return namesUser ? [{ urn, privileges: strings(info.privileges) ?? [] }] : [];
      });
      const privileges = new Set<string>([...privilegesOfRoles(userUrn, allRoles), ...policies.flatMap((p) => p.privileges)]);
      return {
        roles,
        groups: [...facts.groups],
        groupsWithRoles: [...facts.groupRoles.keys()],
        rolesViaGroups,
        allRoles,
        policies: policies.map((p) => p.urn),
        privileges: [...privileges].sort(),
      };
    },
  };

  const Mutation: MutationResolvers = {
    createPolicy: (_parent, { input }, context) => write(context, `${POLICY_PREFIX}${randomUUID()}`, input),
    updatePolicy: (_parent, { urn, input }, context) => write(context, policyUrn(urn), input),
    deletePolicy: async (_parent, { urn }, context) => {
      const grant = await manage(context);
      await service.deleteEntity(grant, policyUrn(urn));
      return urn;
    },
  };
  return { Query, Mutation, ...policyEntityResolvers(loaders) };
}
