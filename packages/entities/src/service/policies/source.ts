import type { AspectStore } from '../../store/port';
import type { PolicySource } from '../policy';
import { MEMBERSHIP_ASPECTS, parsePolicy, RESOURCE_ASPECTS, resourceFacts, type StoredPolicy } from './engine';

const urnsIn = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * The policy model read from the aspect store: `dataHubPolicy` entities' `dataHubPolicyInfo`; a user's groups from its
 * `groupMembership` (ingested) and `nativeGroupMembership` (made in mds), its roles from its own and its groups'
 * `roleMembership`. The store answers the same object until the next commit, so policies are parsed once per commit.
 */
export function storedPolicySource(store: AspectStore): PolicySource {
  const parsed = new WeakMap<object, StoredPolicy[]>();
  return {
    async policies() {
      const stored = await store.latestOfType('dataHubPolicy', ['dataHubPolicyInfo']);
      let policies = parsed.get(stored);
      if (!policies) {
        policies = [...stored].flatMap(([urn, aspects]) => {
          const value = aspects.get('dataHubPolicyInfo')?.value;
          const policy = value && parsePolicy(urn, value);
          return policy ? [policy] : [];
        });
        parsed.set(stored, policies);
      }
      return policies;
    },
    async actor(urn) {
      const own = (await store.latest([urn], MEMBERSHIP_ASPECTS)).get(urn);
      const groups = new Set([
        ...urnsIn(own?.get('groupMembership')?.value.groups),
        ...urnsIn(own?.get('nativeGroupMembership')?.value.nativeGroups),
      ]);
      const ownRoles = new Set(urnsIn(own?.get('roleMembership')?.value.roles));
      const roles = new Set(ownRoles);
      const groupRoles = new Map<string, ReadonlySet<string>>();
      if (groups.size) {
        for (const [group, aspects] of await store.latest([...groups], ['roleMembership'])) {
          const held = new Set(urnsIn(aspects.get('roleMembership')?.value.roles));
          if (held.size === 0) continue;
          groupRoles.set(group, held);
          for (const role of held) roles.add(role);
        }
      }
      return { urn, groups, roles, ownRoles, groupRoles };
    },
    async resource(urn) {
      return resourceFacts(urn, (await store.latest([urn], RESOURCE_ASPECTS)).get(urn));
    },
  };
}
