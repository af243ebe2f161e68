import { Privilege, type RoleDirectory } from '@mds/auth';
import { createStampedCache } from '@mds/db';
import { SYSTEM_ACTOR, type EntityService } from './entity-service';
import { anyOf } from './policy';

/**
 * Roles as DataHub records them, for `@mds/auth` (its RoleDirectory): the `roleMembership` aspect of a user or a group
 * (relationship IsMemberOfRole, so a role's `relationships` list its holders). A user holds its own roles and its
 * groups' (groupMembership, nativeGroupMembership), read as the policy reads them; the answer is kept until the next
 * commit of the store (`stamp`, SQLite's), so a known caller's roles cost no read. Without a stamp (PostgreSQL) every
 * request reads them, so a role given on one replica applies on every other at once.
 */
export function entityRoleDirectory(service: EntityService, stamp: (() => number) | undefined): RoleDirectory {
  const held = createStampedCache<string, readonly string[]>(stamp, { maxEntries: 10_000 });
  const reader = service.reader(SYSTEM_ACTOR, { api: 'graphql' });
  return {
    rolesOf: (userUrn) => held.get(userUrn, async () => [...(await service.policy.actorFacts(userUrn)).roles]),
    async assign(roleUrn, actors, by) {
      // DataHub's RoleService writes as the system on behalf of the caller, who was checked for MANAGE_POLICIES.
      const grant = await service.authorize(SYSTEM_ACTOR, anyOf(Privilege.EDIT_ENTITY));
      const value = { roles: roleUrn === null ? [] : [roleUrn] };
      await service.write(
        grant,
        actors.map((urn) => ({ urn, aspect: 'roleMembership', changeType: 'UPSERT' as const, value })),
        { actor: by },
      );
    },
    async hasRecord(actorUrn) {
      return (await reader.latest([actorUrn], ['roleMembership'])).get(actorUrn)?.has('roleMembership') ?? false;
    },
  };
}
