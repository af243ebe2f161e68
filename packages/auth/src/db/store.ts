import { copiedTable, createStampedCache, type CopiedTable, type SqlDatabase } from '@mds/db';
import { accessTokens, inviteTokens, nativeCredentials, sessionTokens, users } from './schema';

/** Auth's tables, for copying an installation: users with their roles, and tokens (`first_start` is not copied). */
export const AUTH_TABLES: readonly CopiedTable[] = [
  copiedTable(users),
  copiedTable(accessTokens),
  copiedTable(nativeCredentials),
  copiedTable(inviteTokens),
  copiedTable(sessionTokens),
];

/** A native user's stored password and pending reset token (`native_credentials`). */
export interface CredentialRow {
  actorUrn: string;
  passwordHash: string;
  resetTokenHash: string | null;
  resetTokenExpiresAt: number | null;
  updatedAt: number;
}

export interface InviteTokenRow {
  id: string;
  encryptedToken: string;
  roleUrn: string | null;
  createdAt: number;
}

/** A stored token (`access_tokens`): only its salted hash, as `id`. */
export type TokenRow = {
  id: string;
  name: string;
  description: string | null;
  actorUrn: string;
  ownerUrn: string;
  createdAt: number;
  expiresAt: number | null;
};

export interface UserRow {
  actorUrn: string;
  roleUrn: string | null;
  createdAt: number;
}

/** What a request needs to know about a presented token, in one indexed lookup. */
export interface Credential {
  actorUrn: string;
  expiresAt: number | null;
  /** null when the token's user no longer exists. */
  user: { roleUrn: string | null } | null;
}

/** A personal access token (`access_tokens`) or a sign-in's session token (`session_tokens`). */
export type TokenType = 'PERSONAL' | 'SESSION';

export interface TokenFilter {
  field: 'ownerUrn' | 'actorUrn';
  values: string[];
  negated: boolean;
}

// Aliases double-quoted: PostgreSQL would otherwise fold them to lower case.
const TOKEN_COLUMNS = `id, name, description, actor_urn AS "actorUrn", owner_urn AS "ownerUrn", created_at AS "createdAt", expires_at AS "expiresAt"`;
const FILTER_COLUMNS = { ownerUrn: 'owner_urn', actorUrn: 'actor_urn' } as const;
const credentialQuery = (table: 'access_tokens' | 'session_tokens') =>
  `SELECT t.actor_urn AS "actorUrn", t.expires_at AS "expiresAt", u.actor_urn AS "userUrn", u.role_urn AS "roleUrn"
  FROM ${table} t LEFT JOIN users u ON u.actor_urn = t.actor_urn WHERE t.id = ?`;
const CREDENTIAL_QUERIES = { PERSONAL: credentialQuery('access_tokens'), SESSION: credentialQuery('session_tokens') };
const CREDENTIAL_COLUMNS = `actor_urn AS "actorUrn", password_hash AS "passwordHash", reset_token_hash AS "resetTokenHash",
  reset_token_expires_at AS "resetTokenExpiresAt", updated_at AS "updatedAt"`;
const INVITE_COLUMNS = `id, encrypted_token AS "encryptedToken", role_urn AS "roleUrn", created_at AS "createdAt"`;

const placeholders = (count: number) => Array.from({ length: count }, () => '?').join(', ');

/**
 * All SQL of the auth package, over the storage port (SQLite or PostgreSQL alike). Callers validate input; this layer
 * only reads and writes.
 */
export function createStore(db: SqlDatabase) {
  // Credentials are asked for on every request. Cached only where the port has a commit stamp (SQLite), which every
  // commit moves, ours and other processes'; on PostgreSQL every lookup reads the database, so a revocation or role
  // change made on another replica still applies to the very next request.
  const credentials = createStampedCache<string, Credential | undefined>(db.commitStamp, { maxEntries: 10_000 });
  const loadCredential = async (id: string, type: TokenType): Promise<Credential | undefined> => {
    const row = await db.get<{ actorUrn: string; expiresAt: number | null; userUrn: string | null; roleUrn: string | null }>(
      CREDENTIAL_QUERIES[type],
      [id],
    );
    if (!row) return undefined;
    return { actorUrn: row.actorUrn, expiresAt: row.expiresAt, user: row.userUrn === null ? null : { roleUrn: row.roleUrn } };
  };

  /** Creates each unknown user without a role, in one statement; known users keep theirs. */
  const ensureUsers = async (urns: readonly string[], nowMs: number): Promise<void> => {
    if (!urns.length) return;
    await db.run(
      `INSERT INTO users (actor_urn, role_urn, created_at) VALUES ${urns.map(() => '(?, NULL, ?)').join(', ')} ON CONFLICT (actor_urn) DO NOTHING`,
      urns.flatMap((urn) => [urn, nowMs]),
    );
  };

  return {
    /** Synchronous when cached (SQLite, nothing committed since), a promise otherwise. */
    credential(id: string, type: TokenType = 'PERSONAL'): Credential | undefined | Promise<Credential | undefined> {
      // Ids are salted hashes of distinct tokens; the type in the key keeps the two tables apart all the same.
      return credentials.get(`${type}:${id}`, () => loadCredential(id, type));
    },

    async insertSession(row: { id: string; actorUrn: string; createdAt: number; expiresAt: number }): Promise<void> {
      await db.run('INSERT INTO session_tokens (id, actor_urn, created_at, expires_at) VALUES (?, ?, ?, ?)', [
        row.id,
        row.actorUrn,
        row.createdAt,
        row.expiresAt,
      ]);
    },

    async deleteSession(id: string): Promise<boolean> {
      return (await db.run('DELETE FROM session_tokens WHERE id = ?', [id])).changes > 0;
    },

    /** Creates the user without a role when unknown; a known user keeps its role. */
    async ensureUser(urn: string, nowMs: number): Promise<void> {
      await ensureUsers([urn], nowMs);
    },

    ensureUsers,

    /** The users whose role the users table still holds (before the entity store's `roleMembership` took over). */
    usersWithRoles(): Promise<{ actorUrn: string; roleUrn: string }[]> {
      return db.all<{ actorUrn: string; roleUrn: string }>(
        'SELECT actor_urn AS "actorUrn", role_urn AS "roleUrn" FROM users WHERE role_urn IS NOT NULL ORDER BY actor_urn',
      );
    },

    /** Empties a user's table role once it is recorded elsewhere (only if it still is `roleUrn`). */
    async clearTableRole(urn: string, roleUrn: string): Promise<void> {
      await db.run('UPDATE users SET role_urn = NULL WHERE actor_urn = ? AND role_urn = ?', [urn, roleUrn]);
    },

    findPassword(urn: string): Promise<CredentialRow | undefined> {
      return db.get<CredentialRow>(`SELECT ${CREDENTIAL_COLUMNS} FROM native_credentials WHERE actor_urn = ?`, [urn]);
    },

    /** Sets a user's password (clearing any reset token); `onlyIfAbsent`: only when none is stored, answering whether it was. */
    async setPassword(urn: string, passwordHash: string, nowMs: number, onlyIfAbsent = false): Promise<boolean> {
      const conflict = onlyIfAbsent
        ? 'DO NOTHING'
        : 'DO UPDATE SET password_hash = excluded.password_hash, reset_token_hash = NULL, reset_token_expires_at = NULL, updated_at = excluded.updated_at';
      const result = await db.run(
        `INSERT INTO native_credentials (actor_urn, password_hash, reset_token_hash, reset_token_expires_at, updated_at)
         VALUES (?, ?, NULL, NULL, ?) ON CONFLICT (actor_urn) ${conflict}`,
        [urn, passwordHash, nowMs],
      );
      return result.changes > 0;
    },

    async setResetToken(urn: string, tokenHash: string, expiresAt: number, nowMs: number): Promise<boolean> {
      const result = await db.run(
        'UPDATE native_credentials SET reset_token_hash = ?, reset_token_expires_at = ?, updated_at = ? WHERE actor_urn = ?',
        [tokenHash, expiresAt, nowMs, urn],
      );
      return result.changes > 0;
    },

    /** The invite tokens of a role (null: those without one), oldest first. */
    invitesOfRole(roleUrn: string | null): Promise<InviteTokenRow[]> {
      return roleUrn === null
        ? db.all<InviteTokenRow>(`SELECT ${INVITE_COLUMNS} FROM invite_tokens WHERE role_urn IS NULL ORDER BY created_at, id`)
        : db.all<InviteTokenRow>(`SELECT ${INVITE_COLUMNS} FROM invite_tokens WHERE role_urn = ? ORDER BY created_at, id`, [roleUrn]);
    },

    findInvite(id: string): Promise<InviteTokenRow | undefined> {
      return db.get<InviteTokenRow>(`SELECT ${INVITE_COLUMNS} FROM invite_tokens WHERE id = ?`, [id]);
    },

    /** Replaces every invite token of the role by `row`, in one transaction. */
    async replaceInvites(row: InviteTokenRow): Promise<void> {
      await db.transaction(async (tx) => {
        if (row.roleUrn === null) await tx.run('DELETE FROM invite_tokens WHERE role_urn IS NULL');
        else await tx.run('DELETE FROM invite_tokens WHERE role_urn = ?', [row.roleUrn]);
        await tx.run('INSERT INTO invite_tokens (id, encrypted_token, role_urn, created_at) VALUES (?, ?, ?, ?)', [
          row.id,
          row.encryptedToken,
          row.roleUrn,
          row.createdAt,
        ]);
      });
    },

    findToken(id: string): Promise<TokenRow | undefined> {
      return db.get<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM access_tokens WHERE id = ?`, [id]);
    },

    async insertToken(row: TokenRow): Promise<void> {
      await db.run(
        'INSERT INTO access_tokens (id, name, description, actor_urn, owner_urn, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [row.id, row.name, row.description, row.actorUrn, row.ownerUrn, row.createdAt, row.expiresAt],
      );
    },

    /** Whether a row was deleted. */
    async deleteToken(id: string): Promise<boolean> {
      return (await db.run('DELETE FROM access_tokens WHERE id = ?', [id])).changes > 0;
    },

    /** Newest expiry first, never-expiring last (DataHub sorts by expiresAt descending). */
    async listTokens(options: { filters: TokenFilter[]; start: number; count: number }): Promise<{ total: number; rows: TokenRow[] }> {
      const conditions = options.filters.map(
        (f) => `${FILTER_COLUMNS[f.field]} ${f.negated ? 'NOT IN' : 'IN'} (${placeholders(f.values.length)})`,
      );
      const params = options.filters.flatMap((f) => f.values);
      const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
      const total = (await db.get<{ n: number }>(`SELECT count(*) AS n FROM access_tokens ${where}`, params))?.n ?? 0;
      const rows = await db.all<TokenRow>(
        `SELECT ${TOKEN_COLUMNS} FROM access_tokens ${where}
         ORDER BY (expires_at IS NULL), expires_at DESC, created_at DESC, id LIMIT ? OFFSET ?`,
        [...params, options.count, options.start],
      );
      return { total, rows };
    },

    findUser(urn: string): Promise<UserRow | undefined> {
      return db.get<UserRow>(
        'SELECT actor_urn AS "actorUrn", role_urn AS "roleUrn", created_at AS "createdAt" FROM users WHERE actor_urn = ?',
        [urn],
      );
    },

    /** Sets (or with null removes) the role of every actor, creating unknown users: one statement, all or nothing. */
    async assignRole(roleUrn: string | null, actors: readonly string[], nowMs: number): Promise<void> {
      const unique = [...new Set(actors)]; // PostgreSQL refuses a statement that updates one row twice
      if (!unique.length) return;
      await db.run(
        `INSERT INTO users (actor_urn, role_urn, created_at) VALUES ${unique.map(() => '(?, ?, ?)').join(', ')}
         ON CONFLICT (actor_urn) DO UPDATE SET role_urn = excluded.role_urn`,
        unique.flatMap((actorUrn) => [actorUrn, roleUrn, nowMs]),
      );
    },

    /** Forgets a removed user, in one transaction: its password and reset token, sessions, access tokens and role. */
    async forgetUser(urn: string): Promise<void> {
      await db.transaction(async (tx) => {
        for (const table of ['session_tokens', 'access_tokens', 'native_credentials', 'users']) {
          await tx.run(`DELETE FROM ${table} WHERE actor_urn = ?`, [urn]);
        }
      });
    },

    /** Claims the database's first start: true for exactly one caller per database, ever. */
    async claimFirstStart(nowMs: number): Promise<boolean> {
      return (await db.run('INSERT INTO first_start (id, claimed_at) VALUES (1, ?) ON CONFLICT (id) DO NOTHING', [nowMs])).changes === 1;
    },
  };
}

export type Store = ReturnType<typeof createStore>;
