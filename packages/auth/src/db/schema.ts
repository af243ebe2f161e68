import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

// The SQLite tables as drizzle-kit reads them to generate migrations/sqlite (`pnpm db:generate`); the code itself
// speaks plain SQL through the storage port, and migrations/postgres is written by hand to the same shape.

/** Users known to mds, with the one role each may hold (spec 3). Created by role assignment; the root user is seeded. */
export const users = sqliteTable('users', {
  actorUrn: text('actor_urn').primaryKey(),
  /** `urn:li:dataHubRole:<Admin|Editor|Reader>`, or null: no role (then only GENERATE_PERSONAL_ACCESS_TOKENS). */
  roleUrn: text('role_urn'),
  createdAt: integer('created_at').notNull(),
});

/**
 * Stored (version 2, revocable) access tokens. Only the salted hash of a token is kept (spec 2): it is the primary key,
 * `AccessTokenMetadata.id` and the `tokenId` of `revokeAccessToken`. A revoked token is a deleted row.
 * No foreign key to users on purpose: a token whose user is gone must still be listable and revocable.
 */
export const accessTokens = sqliteTable(
  'access_tokens',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    /** Whom the token authenticates as. */
    actorUrn: text('actor_urn').notNull(),
    /** Who created it (audit; owners may list and revoke their tokens). */
    ownerUrn: text('owner_urn').notNull(),
    createdAt: integer('created_at').notNull(),
    /** Milliseconds since the epoch; null never expires (NO_EXPIRY). */
    expiresAt: integer('expires_at'),
  },
  (t) => [index('access_tokens_owner_urn').on(t.ownerUrn), index('access_tokens_actor_urn').on(t.actorUrn)],
);

/**
 * At most one row: present once some process has claimed the database's first start (and printed its root token).
 * Claimed by an atomic insert, so among replicas starting together on an empty database exactly one wins; the
 * migration creating it pre-claims it for a database already in use.
 */
export const firstStart = sqliteTable('first_start', {
  /** Always 1: the primary key is what makes the claim atomic. */
  id: integer('id').primaryKey(),
  claimedAt: integer('claimed_at').notNull(),
});
