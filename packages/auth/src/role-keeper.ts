import { badRequest } from '@mds/schema';
import { isCorpUserUrn, requireNotSystemActor, ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from './actors';
import type { Store } from './db/store';
import type { Privilege } from './privileges';
import { privilegesOfRoles, requireRoleUrn, ROLE_URNS } from './roles';

const CORP_GROUP_PREFIX = 'urn:li:corpGroup:';
const MAX_URN_LENGTH = 512;

/**
 * Where roles are recorded, as DataHub records them: the `roleMembership` aspect of a user or a group (relationship
 * IsMemberOfRole). The host gives the entity store's (`@mds/entities`' entityRoleDirectory), so a role given here, by
 * an invite, or written by a recipe or the SDK is the same record, and a group's role reaches its members.
 */
export interface RoleDirectory {
  /** Every role the user holds: its own `roleMembership` and its groups'. Synchronous when the answer is cached. */
  rolesOf(userUrn: string): readonly string[] | Promise<readonly string[]>;
  /** Writes each actor's `roleMembership` as DataHub's RoleService does: `[roleUrn]`, or `[]` for null; `by` is the audit actor. */
  assign(roleUrn: string | null, actors: readonly string[], by: string): Promise<void>;
  /** Whether the actor has a `roleMembership` stored (even an empty one). */
  hasRecord(actorUrn: string): Promise<boolean>;
}

/** Whether `urn` names a group (`urn:li:corpGroup:<id>`), which may hold a role for its members. */
function isCorpGroupUrn(urn: string): boolean {
  return urn.length <= MAX_URN_LENGTH && urn.startsWith(CORP_GROUP_PREFIX) && /^[^\s\p{Cc}]+$/u.test(urn.slice(CORP_GROUP_PREFIX.length));
}

/** Checks the actors of a role assignment: users or groups, never the system client; 400 naming the first bad one. */
export function requireRoleActors(actors: readonly string[], field: string): string[] {
  const unique = [...new Set(actors)];
  for (const actor of unique) {
    requireNotSystemActor(actor, field);
    if (!isCorpUserUrn(actor) && !isCorpGroupUrn(actor)) {
      throw badRequest(
        `Field '${field}': '${actor}' is neither a user urn (urn:li:corpuser:<id>) nor a group urn (urn:li:corpGroup:<id>), at most ${MAX_URN_LENGTH} characters.`,
      );
    }
  }
  return unique;
}

/**
 * Roles, read and written. Before the host attaches a `RoleDirectory` (auth used alone: its own tests, the CLI before
 * the entity store opens) the users table's `role_urn` holds them; once one is attached the directory is the only
 * record: attaching copies the table's roles into it (where the actor has no `roleMembership` yet) and empties the
 * column. The root user holds every privilege whatever its roles (DataHub's root policy); the system client is no user.
 */
export function createRoleKeeper(store: Store, now: () => number) {
  let directory: RoleDirectory | undefined;
  return {
    /**
     * Makes `given` the record of roles, after copying into it the roles the users table holds (the root's excepted:
     * it holds every privilege anyway). Answers how many were copied.
     */
    async attach(given: RoleDirectory): Promise<number> {
      let copied = 0;
      for (const row of await store.usersWithRoles()) {
        if (row.actorUrn !== ROOT_ACTOR_URN && !(await given.hasRecord(row.actorUrn))) {
          await given.assign(row.roleUrn, [row.actorUrn], SYSTEM_ACTOR_URN);
          copied++;
        }
        await store.clearTableRole(row.actorUrn, row.roleUrn);
      }
      directory = given;
      return copied;
    },

    /** The privileges of a user whose users-table role is `tableRole` (read only while no directory is attached). */
    privilegesOf(userUrn: string, tableRole: string | null): ReadonlySet<Privilege> | Promise<ReadonlySet<Privilege>> {
      if (!directory) return privilegesOfRoles(userUrn, tableRole === null ? [] : [tableRole]);
      const roles = directory.rolesOf(userUrn);
      return roles instanceof Promise ? roles.then((r) => privilegesOfRoles(userUrn, r)) : privilegesOfRoles(userUrn, roles);
    },

    /** Sets (null: removes) the role of users and groups; a user unknown to auth gets its users row (tokens need one). */
    async assign(roleUrn: string | null, actors: readonly string[], by: string): Promise<void> {
      const role = requireRoleUrn(roleUrn, 'roleUrn');
      const unique = requireRoleActors(actors, 'actors');
      if (!directory) {
        if (unique.some((a) => !isCorpUserUrn(a)))
          throw badRequest("Field 'actors': a group's role needs the entity store, which this process has not opened.");
        await store.assignRole(role, unique, now());
        return;
      }
      await store.ensureUsers(unique.filter(isCorpUserUrn), now());
      if (unique.length) await directory.assign(role, unique, by);
    },

    /**
     * The role of a user: its own first, else its first group's; null for none; undefined for a user auth does not
     * know. The root user's is Admin.
     */
    async of(userUrn: string): Promise<string | null | undefined> {
      const user = await store.findUser(userUrn);
      if (!user) return undefined;
      if (!directory) return user.roleUrn;
      if (userUrn === ROOT_ACTOR_URN) return ROLE_URNS.Admin;
      return (await directory.rolesOf(userUrn))[0] ?? null;
    },
  };
}

export type RoleKeeper = ReturnType<typeof createRoleKeeper>;
