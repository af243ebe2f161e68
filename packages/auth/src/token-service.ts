import type { KeyObject } from 'node:crypto';
import { badRequest, notFound, type AccessTokenDuration } from '@mds/schema';
import { corpUserId, requireCorpUserUrn, requireNotSystemActor } from './actors';
import type { Store, TokenFilter, TokenRow } from './db/store';
import { durationMs } from './durations';
import { hashToken, mintToken } from './tokens-jwt';

/** `AccessTokenMetadata` as GraphQL and the CLI see it (a type, not an interface: an entity's parent is an open record). */
export type AccessTokenMetadata = TokenRow & {
  __typename: 'AccessTokenMetadata';
  urn: string;
  type: 'ACCESS_TOKEN';
};

export interface CreateTokenInput {
  actorUrn: string;
  duration: AccessTokenDuration;
  name: string;
  description?: string | null;
  /** The creator, recorded for audit and ownership; defaults to the actor itself. */
  ownerUrn?: string;
}

export interface ListTokensInput {
  filters?: TokenFilter[];
  start?: number;
  count?: number;
}

export interface ListTokensResult {
  start: number;
  count: number;
  total: number;
  tokens: AccessTokenMetadata[];
}

const MAX_NAME_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 2000;
export const MAX_LIST_COUNT = 1000;
const DEFAULT_LIST_COUNT = 20;

/**
 * Access tokens without privilege checks: the domain rules (validation, hashing, storage) that both the GraphQL
 * resolvers (which authorize first) and the operator's CLI use.
 */
export function createTokenService(options: {
  store: Store;
  signingKey: KeyObject;
  salt: string;
  allowNoExpiry: boolean;
  now: () => number;
}) {
  const { store, signingKey, salt, allowNoExpiry, now } = options;

  return {
    async create(input: CreateTokenInput): Promise<{ accessToken: string; id: string; metadata: AccessTokenMetadata }> {
      const actorUrn = requireCorpUserUrn(input.actorUrn, 'actorUrn');
      const ownerUrn = input.ownerUrn === undefined ? actorUrn : requireCorpUserUrn(input.ownerUrn, 'ownerUrn');
      const name = requireText(input.name, 'name', MAX_NAME_LENGTH);
      const description = input.description == null ? null : requireText(input.description, 'description', MAX_DESCRIPTION_LENGTH, true);
      const expiresInMs = durationMs(input.duration, allowNoExpiry);
      requireNotSystemActor(actorUrn, 'actorUrn');
      if (!(await store.findUser(actorUrn))) {
        throw badRequest(
          `Field 'actorUrn': no user ${actorUrn} exists; give it a role with batchAssignRole first (a null roleUrn creates it without one).`,
        );
      }
      const createdAt = now();
      const accessToken = await mintToken({ key: signingKey, actorId: corpUserId(actorUrn), nowMs: createdAt, expiresInMs });
      const row: TokenRow = {
        id: hashToken(accessToken, salt),
        name,
        description,
        actorUrn,
        ownerUrn,
        createdAt,
        expiresAt: expiresInMs === null ? null : createdAt + expiresInMs,
      };
      await store.insertToken(row);
      return { accessToken, id: row.id, metadata: toMetadata(row) };
    },

    async list(input: ListTokensInput = {}): Promise<ListTokensResult> {
      const start = requireCount(input.start ?? 0, 'start', Number.MAX_SAFE_INTEGER);
      const count = requireCount(input.count ?? DEFAULT_LIST_COUNT, 'count', MAX_LIST_COUNT);
      const { total, rows } = await store.listTokens({ filters: input.filters ?? [], start, count });
      return { start, count: rows.length, total, tokens: rows.map(toMetadata) };
    },

    async find(id: string): Promise<AccessTokenMetadata | undefined> {
      const row = await store.findToken(id);
      return row && toMetadata(row);
    },

    /** Metadata of a raw token, found by its hash (getAccessTokenMetadata). */
    async findByToken(token: string): Promise<AccessTokenMetadata | undefined> {
      const row = await store.findToken(hashToken(token, salt));
      return row && toMetadata(row);
    },

    /** Deletes the stored token: the very next request with it is refused. */
    async revoke(id: string): Promise<void> {
      if (!(await store.deleteToken(id))) throw notFound(`Access token '${id}' does not exist (already revoked, or never created).`);
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

export function toMetadata(row: TokenRow): AccessTokenMetadata {
  return {
    __typename: 'AccessTokenMetadata',
    urn: `urn:li:dataHubAccessToken:${row.id}`,
    type: 'ACCESS_TOKEN',
    id: row.id,
    name: row.name,
    description: row.description,
    actorUrn: row.actorUrn,
    ownerUrn: row.ownerUrn,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
  };
}

function requireText(value: string, field: string, maxLength: number, allowBlank = false): string {
  if (!allowBlank && !value.trim()) throw badRequest(`Field '${field}' must not be empty.`);
  if (value.length > maxLength) throw badRequest(`Field '${field}' must be at most ${maxLength} characters (got ${value.length}).`);
  return value;
}

/** A non-negative integer no larger than `max`, for paging fields. */
export function requireCount(value: number, field: string, max: number): number {
  if (!Number.isInteger(value) || value < 0) throw badRequest(`Field '${field}' must be a non-negative integer (got ${value}).`);
  if (value > max) throw badRequest(`Field '${field}' must be at most ${max} (got ${value}).`);
  return value;
}
