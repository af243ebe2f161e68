import { defineTable } from '@mds/db';

// Auth's tables, described once for both dialects (@mds/db's schema factory). The code speaks plain SQL through the
// storage port; drizzle-kit generates each dialect's migrations from the tables exported at the end
// (drizzle.sqlite.config.ts, drizzle.postgres.config.ts), and test/schema.test.ts checks both migrations folders
// create exactly these tables. Times are milliseconds since the epoch.

/** Users known to mds, with the one role each may hold (spec 3). Created by role assignment; the root user is seeded. */
export const users = defineTable('users', {
  columns: {
    actor_urn: { type: 'text', bytewise: true },
    /** `urn:li:dataHubRole:<Admin|Editor|Reader>`, or null: no role (then only GENERATE_PERSONAL_ACCESS_TOKENS). */
    role_urn: { type: 'text', bytewise: true, nullable: true },
    created_at: { type: 'bigint' },
  },
  primaryKey: ['actor_urn'],
});

/**
 * Stored (version 2, revocable) access tokens. Only the salted hash of a token is kept (spec 2): it is the primary key,
 * `AccessTokenMetadata.id` and the `tokenId` of `revokeAccessToken`. A revoked token is a deleted row.
 * No foreign key to users on purpose: a token whose user is gone must still be listable and revocable.
 */
export const accessTokens = defineTable('access_tokens', {
  columns: {
    id: { type: 'text', bytewise: true },
    name: { type: 'text' },
    description: { type: 'text', nullable: true },
    /** Whom the token authenticates as. */
    actor_urn: { type: 'text', bytewise: true },
    /** Who created it (audit; owners may list and revoke their tokens). */
    owner_urn: { type: 'text', bytewise: true },
    created_at: { type: 'bigint' },
    /** Null never expires (NO_EXPIRY). */
    expires_at: { type: 'bigint', nullable: true },
  },
  primaryKey: ['id'],
  indexes: [
    { name: 'access_tokens_owner_urn', on: ['owner_urn'] },
    { name: 'access_tokens_actor_urn', on: ['actor_urn'] },
  ],
});

/**
 * At most one row: present once some process has claimed the database's first start (and printed its root token).
 * Claimed by an atomic insert, so among replicas starting together on an empty database exactly one wins; the
 * migration creating it pre-claims it for a database already in use.
 */
export const firstStart = defineTable('first_start', {
  columns: {
    /** Always 1: the primary key is what makes the claim atomic. */
    id: { type: 'integer' },
    claimed_at: { type: 'bigint' },
  },
  primaryKey: ['id'],
});

/**
 * Native users' passwords (DataHub's `corpUserCredentials`, kept here rather than as an aspect so no entity read can
 * ever return it). `password_hash` is self-describing: `scrypt$<N>$<r>$<p>$<salt>$<hash>`. A DataHub credential
 * (its `corpUserCredentials` aspect in a migrated database) is verified where it lies and moves here at its first sign-in.
 * A reset token is kept as its sha256 (base64), with its expiry.
 */
export const nativeCredentials = defineTable('native_credentials', {
  columns: {
    actor_urn: { type: 'text', bytewise: true },
    password_hash: { type: 'text' },
    reset_token_hash: { type: 'text', nullable: true },
    reset_token_expires_at: { type: 'bigint', nullable: true },
    updated_at: { type: 'bigint' },
  },
  primaryKey: ['actor_urn'],
});

/**
 * Invite tokens (DataHub's `inviteToken` entity): the id is the token's sha256 (base64), as DataHub keys it; the token
 * itself is kept encrypted (AES-256-GCM under a key derived from the token signing key) because `getInviteToken`
 * shows the current one again. At most one per role (null: no role), enforced by the service.
 */
export const inviteTokens = defineTable('invite_tokens', {
  columns: {
    id: { type: 'text', bytewise: true },
    encrypted_token: { type: 'text' },
    role_urn: { type: 'text', bytewise: true, nullable: true },
    created_at: { type: 'bigint' },
  },
  primaryKey: ['id'],
  indexes: [{ name: 'invite_tokens_role_urn', on: ['role_urn'] }],
});

/**
 * Session tokens (DataHub's SESSION tokens, minted at sign-in). DataHub does not store them; mds keeps their salted
 * hash so signing out revokes one. Not listed among access tokens.
 */
export const sessionTokens = defineTable('session_tokens', {
  columns: {
    id: { type: 'text', bytewise: true },
    actor_urn: { type: 'text', bytewise: true },
    created_at: { type: 'bigint' },
    expires_at: { type: 'bigint' },
  },
  primaryKey: ['id'],
  indexes: [{ name: 'session_tokens_actor_urn', on: ['actor_urn'] }],
});

export const AUTH_SCHEMA = [users, accessTokens, firstStart, nativeCredentials, inviteTokens, sessionTokens] as const;

// What drizzle-kit reads: it takes the tables among a schema file's exports, each config those of its dialect.
export const { sqlite: usersSqlite, postgres: usersPostgres } = users;
export const { sqlite: accessTokensSqlite, postgres: accessTokensPostgres } = accessTokens;
export const { sqlite: firstStartSqlite, postgres: firstStartPostgres } = firstStart;
export const { sqlite: nativeCredentialsSqlite, postgres: nativeCredentialsPostgres } = nativeCredentials;
export const { sqlite: inviteTokensSqlite, postgres: inviteTokensPostgres } = inviteTokens;
export const { sqlite: sessionTokensSqlite, postgres: sessionTokensPostgres } = sessionTokens;
