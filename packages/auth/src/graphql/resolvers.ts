import { badRequest, forbidden, notFound, type ApiContext, type FacetFilterInput, type Resolvers } from '@mds/schema';
import { requireCorpUserUrn, requireNotSystemActor, ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from '../actors';
import type { Credentials } from '../credentials/service';
import type { Store, TokenFilter } from '../db/store';
import { hasAnyPrivilege, Privilege } from '../privileges';
import { requireRoleUrn, ROLES } from '../roles';
import { MAX_LIST_COUNT, requireCount, type TokenService } from '../token-service';

/** DataHub's BatchAssignRoleResolver refuses with its own text, not the generic one. */
export const ASSIGN_ROLE_FORBIDDEN_MESSAGE =
  'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.';

/** DataHub's refusals of the invite-token resolvers (`get` / `create`) and of the reset-token one. */
const INVITE_FORBIDDEN = (verb: 'get' | 'create') =>
  `Unauthorized to ${verb} invite tokens. Please contact your DataHub administrator if this needs corrective action.`;
const RESET_TOKEN_FORBIDDEN_MESSAGE = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

const MAX_ACTORS_PER_ASSIGNMENT = 1000;
const DEFAULT_ROLES_COUNT = 20;
const FILTERABLE_FIELDS: readonly TokenFilter['field'][] = ['ownerUrn', 'actorUrn'];

// DataHub's AuthorizationUtils: managing tokens is one privilege; generating your own is either.
const canManageTokens = (context: ApiContext) => hasAnyPrivilege(context.actor, [Privilege.MANAGE_ACCESS_TOKENS]);
const canGeneratePersonalTokens = (context: ApiContext) =>
  hasAnyPrivilege(context.actor, [Privilege.GENERATE_PERSONAL_ACCESS_TOKENS, Privilege.MANAGE_ACCESS_TOKENS]);

/**
 * GraphQL for tokens and roles. Who may do what follows DataHub's resolvers: create for yourself with
 * GENERATE_PERSONAL_ACCESS_TOKENS or for anyone with MANAGE_ACCESS_TOKENS; list everything with MANAGE_ACCESS_TOKENS
 * or only your own (filter ownerUrn = you); revoke your own or, with MANAGE_ACCESS_TOKENS, any; look a raw token up
 * with MANAGE_ACCESS_TOKENS; assign roles with MANAGE_POLICIES.
 */
export function createResolvers(deps: { tokens: TokenService; store: Store; credentials: Credentials; now: () => number }): Resolvers {
  const { tokens, store, credentials, now } = deps;

  return {
    Query: {
      listAccessTokens: async (_parent, { input }, context) => {
        const filters = (input.filters ?? []).map(toTokenFilter);
        if (!canManageTokens(context) && !(canGeneratePersonalTokens(context) && isListingOwnTokens(filters, context))) throw forbidden();
        return {
          __typename: 'ListAccessTokenResult',
          ...(await tokens.list({ filters, start: input.start ?? undefined, count: input.count ?? undefined })),
        };
      },

      getAccessTokenMetadata: async (_parent, { token }, context) => {
        if (!canManageTokens(context)) throw forbidden();
        const metadata = await tokens.findByToken(token);
        if (!metadata) throw notFound('No stored access token matches the given token: it was revoked, or never created by this server.');
        return metadata;
      },

      // DataHub's GetInviteTokenResolver: MANAGE_POLICIES, the role's current token.
      getInviteToken: async (_parent, { input }, context) => {
        if (!hasAnyPrivilege(context.actor, [Privilege.MANAGE_POLICIES])) throw forbidden(INVITE_FORBIDDEN('get'));
        return { __typename: 'InviteToken', inviteToken: await credentials.inviteToken(input.roleUrn ?? null, false) };
      },

      listRoles: (_parent, { input }) => {
        const start = requireCount(input.start ?? 0, 'start', Number.MAX_SAFE_INTEGER);
        const count = requireCount(input.count ?? DEFAULT_ROLES_COUNT, 'count', MAX_LIST_COUNT);
        const query = (input.query ?? '').trim().toLowerCase();
        const matching = ROLES.filter((r) => !query || query === '*' || `${r.name}\n${r.description}`.toLowerCase().includes(query));
        const page = matching.slice(start, start + count);
        return {
          __typename: 'ListRolesResult',
          start,
          count: page.length,
          total: matching.length,
          roles: page.map((r) => ({
            __typename: 'DataHubRole',
            urn: r.urn,
            type: 'DATAHUB_ROLE',
            name: r.name,
            description: r.description,
          })),
        };
      },
    },

    Mutation: {
      createAccessToken: async (_parent, { input }, context) => {
        const actorUrn = requireCorpUserUrn(input.actorUrn, 'actorUrn');
        const forSelf = actorUrn === context.actor.urn;
        if (!canManageTokens(context) && !(forSelf && canGeneratePersonalTokens(context))) throw forbidden();
        const { accessToken, metadata } = await tokens.create({
          actorUrn,
          duration: input.duration,
          name: input.name,
          description: input.description,
          ownerUrn: context.actor.urn,
        });
        return { __typename: 'AccessToken', accessToken, metadata };
      },

      revokeAccessToken: async (_parent, { tokenId }, context) => {
        const token = await tokens.find(tokenId);
        if (token && !canManageTokens(context) && token.ownerUrn !== context.actor.urn) throw forbidden();
        await tokens.revoke(tokenId); // 404 when unknown
        return true;
      },

      // DataHub's CreateInviteTokenResolver: MANAGE_POLICIES, a new token replacing the role's previous one.
      createInviteToken: async (_parent, { input }, context) => {
        if (!hasAnyPrivilege(context.actor, [Privilege.MANAGE_POLICIES])) throw forbidden(INVITE_FORBIDDEN('create'));
        return { __typename: 'InviteToken', inviteToken: await credentials.inviteToken(input.roleUrn ?? null, true) };
      },

      // DataHub's AcceptRoleResolver: any signed-in user, no privilege; the invite's role replaces the user's own.
      acceptRole: async (_parent, { input }, context) => {
        const userUrn = context.actor.urn;
        if (userUrn === SYSTEM_ACTOR_URN)
          throw badRequest(`${SYSTEM_ACTOR_URN} is the system client and cannot hold a role: accept the invite signed in as a user.`);
        // DataHub's root user holds every privilege through a policy of its own, whatever its role; here that is its Admin role.
        if (userUrn === ROOT_ACTOR_URN)
          throw badRequest(`The root user ${ROOT_ACTOR_URN} keeps its Admin role: an invite cannot change it.`);
        await credentials.acceptInvite(userUrn, input.inviteToken);
        return true;
      },

      // DataHub's CreateNativeUserResetTokenResolver: MANAGE_USER_CREDENTIALS.
      createNativeUserResetToken: async (_parent, { input }, context) => {
        if (!hasAnyPrivilege(context.actor, [Privilege.MANAGE_USER_CREDENTIALS])) throw forbidden(RESET_TOKEN_FORBIDDEN_MESSAGE);
        const userUrn = requireCorpUserUrn(input.userUrn, 'userUrn');
        return { __typename: 'ResetToken', resetToken: await credentials.createResetToken(userUrn) };
      },

      batchAssignRole: async (_parent, { input }, context) => {
        if (!hasAnyPrivilege(context.actor, [Privilege.MANAGE_POLICIES])) throw forbidden(ASSIGN_ROLE_FORBIDDEN_MESSAGE);
        const roleUrn = requireRoleUrn(input.roleUrn ?? null, 'roleUrn');
        const actors = [...new Set(input.actors)];
        if (actors.length > MAX_ACTORS_PER_ASSIGNMENT) {
          throw badRequest(`Field 'actors' must list at most ${MAX_ACTORS_PER_ASSIGNMENT} users (got ${actors.length}).`);
        }
        for (const actor of actors) {
          requireCorpUserUrn(actor, 'actors');
          requireNotSystemActor(actor, 'actors');
        }
        await store.assignRole(roleUrn, actors, now());
        return true;
      },
    },
  };
}

/** A DataHub facet filter on a token field; `values` wins over the deprecated `value`. */
function toTokenFilter(filter: FacetFilterInput): TokenFilter {
  const field = filter.field as TokenFilter['field'];
  if (!FILTERABLE_FIELDS.includes(field)) {
    throw badRequest(
      `Filter field '${filter.field}' is not supported when listing access tokens; use one of ${FILTERABLE_FIELDS.join(', ')}.`,
    );
  }
  const values = filter.values ?? (filter.value == null ? [] : [filter.value]);
  if (!values.length) throw badRequest(`Filter on '${field}' needs at least one value (in 'values').`);
  return { field, values, negated: filter.negated === true };
}

/**
 * DataHub lets a non-manager list when a filter says ownerUrn = exactly themselves. Filters are ANDed, so such a
 * filter confines the answer to their own tokens; a negated one would not, and does not count (DataHub forgets this).
 */
function isListingOwnTokens(filters: TokenFilter[], context: ApiContext): boolean {
  return filters.some((f) => f.field === 'ownerUrn' && !f.negated && f.values.length === 1 && f.values[0] === context.actor.urn);
}
