import { Privilege } from '@mds/auth';
import { isJsonObject, MAX_PAGE_SIZE, parseUrn, UrnError } from '@mds/core';
import { SearchQueryError, type SearchIndex } from '@mds/search';
import { badRequest, notFound, type Actor, type EntityParent, type MutationResolvers, type QueryResolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, editPrivileges, type EntityService, type Grant, type PrivilegeGroups } from '../service';
import { list, pageOrRefuse, refWithKey } from './common-fields';
import { graphqlReader, writeCreate } from './mutation-support';

type Json = Record<string, unknown>;

const MANAGE_USERS = anyOf(Privilege.MANAGE_USERS_AND_GROUPS);
/** Who may edit a group's members (AuthorizationUtils.canEditGroupMembers): EDIT_ENTITY or EDIT_GROUP_MEMBERS on it. */
const EDIT_MEMBERS = editPrivileges([Privilege.EDIT_GROUP_MEMBERS]);
/** What editing one's own user or settings asks: nothing beyond being that user. */
const SELF: PrivilegeGroups = [[]];
/** The personas the UI offers (DataHub's graphql Constants.DEFAULT_PERSONA_URNS): no other may be chosen. */
const PERSONAS = new Set([
  'urn:li:dataHubPersona:technicalUser',
  'urn:li:dataHubPersona:businessUser',
  'urn:li:dataHubPersona:dataLeader',
  'urn:li:dataHubPersona:dataSteward',
]);
/** How many members a group's membership is moved in at once (DataHub's GroupService reads 500). */
const MIGRATED_MEMBERS = 500;

/** The urn when it is of `entityType`, or a 400 naming it (`label`: what the argument is). */
function urnOfType(urn: string, entityType: string, label: string): string {
  let parsed: string | undefined;
  try {
    parsed = parseUrn(urn).entityType;
  } catch (error) {
    if (!(error instanceof UrnError)) throw error;
  }
  if (parsed !== entityType) throw badRequest(`Invalid ${label} urn: ${urn}`);
  return urn;
}

/** A user or group as GraphQL answers it (its fields load themselves), with what its urn says. */
const entityOf = (urn: string) => refWithKey(urn) as EntityParent | undefined;

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((x): x is string => typeof x === 'string') : []);

/**
 * How an aspect that refers to a removed user or group is cleaned (DataHub's deleteEntityReferences): the urn taken out
 * of owners, group members and admins, memberships, a manager.
 */
const UNLINK: Readonly<Record<string, (value: Json, urn: string) => Json>> = {
  ownership: (value, urn) => ({ ...value, owners: list(value.owners).filter((owner) => owner.owner !== urn) }),
  groupMembership: (value, urn) => ({ ...value, groups: strings(value.groups).filter((group) => group !== urn) }),
  nativeGroupMembership: (value, urn) => ({ ...value, nativeGroups: strings(value.nativeGroups).filter((group) => group !== urn) }),
  corpGroupInfo: (value, urn) => ({
    ...value,
    ...(Array.isArray(value.admins) ? { admins: strings(value.admins).filter((u) => u !== urn) } : {}),
    ...(Array.isArray(value.members) ? { members: strings(value.members).filter((u) => u !== urn) } : {}),
    ...(Array.isArray(value.groups) ? { groups: strings(value.groups).filter((g) => g !== urn) } : {}),
  }),
  corpUserInfo: (value, urn) => {
    if (value.managerUrn !== urn) return value;
    const { managerUrn: _removed, ...rest } = value;
    return rest;
  },
};
/** The edges by which those aspects refer to a user or a group. */
const REFERRING_EDGES = ['OwnedBy', 'IsPartOf', 'IsMemberOfGroup', 'IsMemberOfNativeGroup', 'ReportsTo'];

/**
 * `listUsers` and `listGroups` (DataHub's ListUsersResolver, ListGroupsResolver): MANAGE_USERS_AND_GROUPS, a text query
 * over the search index, a page. Groups come newest first (by `corpGroupInfo.created`, DataHub's `createdTime` sort),
 * then by urn; users in the index's order.
 */
export function userListResolvers(service: EntityService, search: SearchIndex): QueryResolvers {
  const find = async (entityType: string, query: string | null | undefined, start: number, count: number) => {
    try {
      return await search.search({ entityTypes: [entityType], input: query?.trim() || '*', filters: [], start, count, facets: [] });
    } catch (error) {
      if (error instanceof SearchQueryError) throw badRequest(error.message);
      throw error;
    }
  };
  return {
    listUsers: async (_parent, { input }, { actor }) => {
      await service.authorize(actor, MANAGE_USERS);
      const page = pageOrRefuse(input.start ?? 0, input.count ?? 20);
      const found = await find('corpuser', input.query, page.start, page.count);
      const users = found.hits.flatMap((hit) => entityOf(hit.urn) ?? []);
      return { start: page.start, count: users.length, total: found.total, users };
    },
    listGroups: async (_parent, { input }, { actor }) => {
      await service.authorize(actor, MANAGE_USERS);
      const page = pageOrRefuse(input.start ?? 0, input.count ?? 20);
      // Every match is read (a page of the index at a time) to be ordered by creation, which the index does not sort by.
      const urns: string[] = [];
      for (let total = Infinity; urns.length < total;) {
        const found = await find('corpGroup', input.query, urns.length, MAX_PAGE_SIZE);
        total = found.total;
        if (found.hits.length === 0) break;
        urns.push(...found.hits.map((hit) => hit.urn));
      }
      const stored = await graphqlReader(service, actor).latest(urns, ['corpGroupInfo']);
      const created = (urn: string) => {
        const stamp = stored.get(urn)?.get('corpGroupInfo')?.value.created;
        return isJsonObject(stamp) && typeof stamp.time === 'number' ? stamp.time : 0;
      };
      urns.sort((a, b) => created(b) - created(a) || (a < b ? -1 : 1));
      const groups = urns.slice(page.start, page.start + page.count).flatMap((urn) => entityOf(urn) ?? []);
      return { start: page.start, count: groups.length, total: urns.length, groups };
    },
  };
}

/** What removing a user does beyond the store: its sign-in ended (password, sessions, tokens), by the host's auth. */
export type UserRemoved = (userUrn: string) => Promise<void>;

/**
 * The mutations of users, groups and one's own settings (DataHub's resolvers of `resolvers/user`, `resolvers/group`,
 * `resolvers/settings/user`, UpdateUserSettingResolver, CorpUserType.update, CorpGroupType.update and GroupService).
 */
export function userEditResolvers(service: EntityService, now: () => number, userRemoved: UserRemoved | undefined): MutationResolvers {
  const stampOf = (actor: Actor) => ({ time: now(), actor: actor.urn });

  /** Takes `urn` out of every aspect that refers to it, then deletes the entity (DataHub deletes, then cleans up). */
  const remove = async (grant: Grant, actor: Actor, urn: string) => {
    const reader = graphqlReader(service, actor);
    const referring = new Map<string, { urn: string; aspect: string }>();
    for (const edge of REFERRING_EDGES) {
      for (const ref of await reader.referencesTo(urn, edge)) {
        if (ref.urn !== urn && Object.hasOwn(UNLINK, ref.aspect)) referring.set(`${ref.urn} ${ref.aspect}`, ref);
      }
    }
    for (const ref of referring.values()) {
      const unlink = UNLINK[ref.aspect]!;
      await service.update(grant, ref, (current) => unlink(current ?? {}, urn), stampOf(actor));
    }
    await service.deleteEntity(grant, urn);
  };

  /**
   * The group's origin decides how its members are edited (DataHub's Add/RemoveGroupMembersResolver): an external
   * group's are refused; a group of no origin first has its ingested members (groupMembership) moved to native
   * membership and becomes NATIVE (GroupService.migrateGroupMembershipToNativeGroupMembership).
   */
  const nativeGroup = async (actor: Actor, group: string, refusal: string) => {
    const reader = graphqlReader(service, actor);
    const origin = (await reader.latest([group], ['origin'])).get(group)?.get('origin')?.value;
    if (origin?.type === 'EXTERNAL') throw badRequest(refusal);
    if (typeof origin?.type === 'string') return;
    const members = (await reader.referencesTo(group, 'IsMemberOfGroup'))
      .filter((ref) => ref.aspect === 'groupMembership')
      .slice(0, MIGRATED_MEMBERS)
      .map((ref) => ref.urn);
    // The members moved are written on behalf of the group, as its members are edited.
    const grant = await service.authorizeFor(actor, EDIT_MEMBERS, [group], members);
    const stamp = stampOf(actor);
    for (const member of members) {
      await service.update(grant, { urn: member, aspect: 'groupMembership' }, (v) => UNLINK.groupMembership!(v ?? {}, group), stamp);
    }
    await service.write(grant, [{ urn: group, aspect: 'origin', changeType: 'UPSERT', value: { type: 'NATIVE' } }], stamp);
    for (const member of members) await addNative(grant, member, group, stamp);
  };

  /** The group as the user's last native group (DataHub takes it out and adds it again). */
  const addNative = (grant: Grant, user: string, group: string, stamp: { time: number; actor: string }) =>
    service.update(
      grant,
      { urn: user, aspect: 'nativeGroupMembership' },
      (current) => ({ ...current, nativeGroups: [...strings(current?.nativeGroups).filter((g) => g !== group), group] }),
      stamp,
    );

  /** A grant to edit a group's members and write the users named (EDIT_ENTITY or EDIT_GROUP_MEMBERS on the group). */
  const membersGrant = async (actor: Actor, input: { groupUrn: string; userUrns: readonly string[] }, absent: string) => {
    const group = urnOfType(input.groupUrn, 'corpGroup', 'group');
    const users = input.userUrns.map((user) => urnOfType(user, 'corpuser', 'user'));
    const grant = await service.authorizeFor(actor, EDIT_MEMBERS, [group], users);
    if (!(await graphqlReader(service, actor).exists(group))) throw notFound(absent);
    return { grant, group, users: [...new Set(users)] };
  };

  /** A grant to write the actor's own user (its settings, its own properties). */
  const selfGrant = (actor: Actor) => service.authorize(actor, SELF, [actor.urn]);

  /** A read-modify-write of the actor's corpUserSettings, which always holds an appearance (DataHub's default: not simplified). */
  const updateSettings = async (actor: Actor, modify: (settings: Json) => Json) => {
    const grant = await selfGrant(actor);
    await service.update(
      grant,
      { urn: actor.urn, aspect: 'corpUserSettings' },
      (current) => modify(current ? { ...current } : { appearance: { showSimplifiedHomepage: false } }),
      stampOf(actor),
    );
    return true;
  };

  return {
    // RemoveUserResolver: MANAGE_USERS_AND_GROUPS; the user and the references to it go, and so does its sign-in.
    removeUser: async (_parent, { urn }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE_USERS);
      urnOfType(urn, 'corpuser', 'user');
      await remove(grant, actor, urn);
      await userRemoved?.(urn);
      return true;
    },

    // RemoveGroupResolver: MANAGE_USERS_AND_GROUPS; the group goes, and so do its members' memberships of it.
    removeGroup: async (_parent, { urn }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE_USERS);
      urnOfType(urn, 'corpGroup', 'group');
      await remove(grant, actor, urn);
      return true;
    },

    // CreateGroupResolver and GroupService.createNativeGroup: corpGroupInfo stamped with its creator, origin NATIVE.
    createGroup: async (_parent, { input }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE_USERS);
      const id = input.id ?? randomUUID();
      const urn = `urn:li:corpGroup:${id}`;
      let valid = false;
      try {
        const parsed = parseUrn(urn);
        valid = parsed.parts.length === 1 && parsed.parts[0] === id;
      } catch (error) {
        if (!(error instanceof UrnError)) throw error;
      }
      if (!valid) throw badRequest(`Invalid group id: ${JSON.stringify(id)}`);
      const stamp = stampOf(actor);
      const info = { displayName: input.name, description: input.description ?? '', groups: [], members: [], admins: [], created: stamp };
      await writeCreate(
        service,
        grant,
        [
          { urn, aspect: 'corpGroupInfo', changeType: 'CREATE_ENTITY', value: info },
          { urn, aspect: 'origin', changeType: 'UPSERT', value: { type: 'NATIVE' } },
        ],
        stamp,
        'This Group already exists!',
      );
      return urn;
    },

    // AddGroupMembersResolver and GroupService.addUserToNativeGroup: every user must exist; nativeGroupMembership.
    addGroupMembers: async (_parent, { input }, { actor }) => {
      const absent = `Failed to add members to group ${input.groupUrn}. Group does not exist.`;
      const { grant, group, users } = await membersGrant(actor, input, absent);
      const reader = graphqlReader(service, actor);
      for (const user of users) {
        if (!(await reader.exists(user))) throw badRequest(`Failed to add member to group. User does not exist: ${user}`);
      }
      await nativeGroup(actor, group, `Group ${group} was ingested from an external provider and cannot have members manually added to it`);
      const stamp = stampOf(actor);
      for (const user of users) await addNative(grant, user, group, stamp);
      return true;
    },

    // RemoveGroupMembersResolver and GroupService.removeExistingNativeGroupMembers.
    removeGroupMembers: async (_parent, { input }, { actor }) => {
      const absent = `Failed to add remove members from group ${input.groupUrn}. Group does not exist.`;
      const { grant, group, users } = await membersGrant(actor, input, absent);
      await nativeGroup(
        actor,
        group,
        `Group ${group} was ingested from an external provider and cannot have members manually removed from it`,
      );
      const stored = await graphqlReader(service, actor).latest(users, ['nativeGroupMembership']);
      const stamp = stampOf(actor);
      for (const user of users) {
        if (!strings(stored.get(user)?.get('nativeGroupMembership')?.value.nativeGroups).includes(group)) continue;
        await service.update(
          grant,
          { urn: user, aspect: 'nativeGroupMembership' },
          (v) => UNLINK.nativeGroupMembership!(v ?? {}, group),
          stamp,
        );
      }
      return true;
    },

    // CorpUserType.update: the user itself, or EDIT_ENTITY, or the privilege of the fields edited; corpUserEditableInfo merged.
    updateCorpUserProperties: async (_parent, { urn, input }, context) => {
      const { actor } = context;
      urnOfType(urn, 'corpuser', 'user');
      const contact = input.slack != null || input.email != null || input.phone != null;
      const profile = [input.aboutMe, input.displayName, input.pictureLink, input.teams, input.title, input.skills].some((v) => v != null);
      // DataHub asks only one of the two when both kinds are edited, and nothing for the other fields; here each kind
      // edited asks its privilege, and an edit of neither kind asks EDIT_USER_PROFILE.
      const specific = [...(contact ? [Privilege.EDIT_CONTACT_INFO] : []), ...(profile || !contact ? [Privilege.EDIT_USER_PROFILE] : [])];
      const grant = await service.authorize(actor, actor.urn === urn ? SELF : editPrivileges(specific), [urn]);
      if (input.personaUrn != null && !PERSONAS.has(input.personaUrn))
        throw notFound(`Provided persona urn ${input.personaUrn} does not exist`);
      const edited: Json = {};
      for (const key of ['displayName', 'aboutMe', 'pictureLink', 'skills', 'teams', 'title', 'phone', 'slack', 'email'] as const) {
        if (input[key] != null) edited[key] = input[key];
      }
      if (input.platformUrns != null) edited.platforms = input.platformUrns;
      if (input.personaUrn != null) edited.persona = input.personaUrn;
      await service.update(grant, { urn, aspect: 'corpUserEditableInfo' }, (current) => ({ ...current, ...edited }), stampOf(actor));
      return entityOf(urn) ?? null;
    },

    // CorpGroupType.update: EDIT_ENTITY, or the privilege of the fields edited; corpGroupEditableInfo merged.
    updateCorpGroupProperties: async (_parent, { urn, input }, { actor }) => {
      urnOfType(urn, 'corpGroup', 'group');
      // DataHub asks EDIT_ENTITY_DOCS for a description, else EDIT_CONTACT_INFO for contacts, and nothing for a picture
      // alone; here each kind edited asks its privilege, and a picture alone asks EDIT_ENTITY.
      const specific = [
        ...(input.description != null ? [Privilege.EDIT_ENTITY_DOCS] : []),
        ...(input.slack != null || input.email != null ? [Privilege.EDIT_CONTACT_INFO] : []),
      ];
      const grant = await service.authorize(actor, editPrivileges(specific), [urn]);
      const edited: Json = {};
      for (const key of ['description', 'slack', 'email', 'pictureLink'] as const) {
        if (input[key] != null) edited[key] = input[key];
      }
      await service.update(grant, { urn, aspect: 'corpGroupEditableInfo' }, (current) => ({ ...current, ...edited }), stampOf(actor));
      return entityOf(urn) ?? null;
    },

    // UpdateUserSettingResolver: the caller's own appearance switch.
    updateUserSetting: (_parent, { input }, { actor }) =>
      updateSettings(actor, (settings) => {
        const field = input.name === 'SHOW_THEME_V2' ? 'showThemeV2' : 'showSimplifiedHomepage';
        const appearance = isJsonObject(settings.appearance) ? settings.appearance : {};
        return { ...settings, appearance: { ...appearance, [field]: input.value } };
      }),

    // UpdateCorpUserViewsSettingsResolver: the caller's default view, set or (null) cleared.
    updateCorpUserViewsSettings: (_parent, { input }, { actor }) => {
      const view = input.defaultView == null ? null : urnArgument(input.defaultView, 'defaultView');
      return updateSettings(actor, (settings) => {
        const { defaultView: _old, ...views } = isJsonObject(settings.views) ? settings.views : {};
        return { ...settings, views: view === null ? views : { ...views, defaultView: view } };
      });
    },

    // UpdateUserHomePageSettingsResolver: the caller's page template (set or removed) and announcements dismissed.
    updateUserHomePageSettings: (_parent, { input }, { actor }) => {
      if (input.pageTemplate != null && input.removePageTemplate === true)
        throw badRequest('Invalid inputs: Cannot specify both pageTemplate and removePageTemplate.');
      const template = input.pageTemplate == null ? null : urnArgument(input.pageTemplate, 'pageTemplate');
      const dismissed = (input.newDismissedAnnouncements ?? []).flatMap((urn) =>
        urn == null ? [] : [urnArgument(urn, 'newDismissedAnnouncements')],
      );
      return updateSettings(actor, (settings) => {
        const { pageTemplate: oldTemplate, ...homePage } = isJsonObject(settings.homePage) ? settings.homePage : {};
        const kept =
          input.removePageTemplate === true
            ? {}
            : template !== null
              ? { pageTemplate: template }
              : oldTemplate
                ? { pageTemplate: oldTemplate }
                : {};
        const announcements =
          input.newDismissedAnnouncements == null
            ? {}
            : { dismissedAnnouncements: [...new Set([...strings(homePage.dismissedAnnouncements), ...dismissed])] };
        return { ...settings, homePage: { ...homePage, ...kept, ...announcements } };
      });
    },
  };
}

/** An urn argument, or a 400 naming it. */
function urnArgument(urn: string, argument: string): string {
  try {
    parseUrn(urn);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn in ${argument}: ${urn}`);
    throw error;
  }
  return urn;
}
