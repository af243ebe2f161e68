import { createReadCache, type SqliteDatabase } from '@mds/db';
import { and, count, desc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { accessTokens, users } from './schema';

export type TokenRow = typeof accessTokens.$inferSelect;
export type UserRow = typeof users.$inferSelect;

/** What a request needs to know about a presented token, in one indexed lookup. */
export interface Credential {
  actorUrn: string;
  expiresAt: number | null;
  /** null when the token's user no longer exists. */
  user: { roleUrn: string | null } | null;
}

export interface TokenFilter {
  field: 'ownerUrn' | 'actorUrn';
  values: string[];
  negated: boolean;
}

/** All SQL of the auth package. Callers validate input; this layer only reads and writes. */
export function createStore(db: SqliteDatabase) {
  const orm = drizzle(db);

  // The per-request query: token row joined with its user (both primary-key lookups). Plain better-sqlite3 rather
  // than drizzle here: it runs on every request, and drizzle's per-call parameter and row mapping cost as much as
  // the lookup itself.
  const credentialQuery = db.prepare<[string], { actorUrn: string; expiresAt: number | null; userUrn: string | null; roleUrn: string | null }>(
    `SELECT t.actor_urn AS actorUrn, t.expires_at AS expiresAt, u.actor_urn AS userUrn, u.role_urn AS roleUrn
     FROM access_tokens t LEFT JOIN users u ON u.actor_urn = t.actor_urn WHERE t.id = ?`,
  );
  // Credentials are asked for on every request; the cache sees every commit, ours and other processes', so a
  // revocation or role change still applies to the very next request.
  const credentials = createReadCache<string, Credential | undefined>(db, { maxEntries: 10_000 });
  const tokenQuery = orm.select().from(accessTokens).where(eq(accessTokens.id, sql.placeholder('id'))).prepare();
  const userQuery = orm.select().from(users).where(eq(users.actorUrn, sql.placeholder('urn'))).prepare();

  const filterColumn = { ownerUrn: accessTokens.ownerUrn, actorUrn: accessTokens.actorUrn } as const;

  return {
    credential(id: string): Credential | undefined {
      return credentials.get(id, () => {
        const row = credentialQuery.get(id);
        if (!row) return undefined;
        return { actorUrn: row.actorUrn, expiresAt: row.expiresAt, user: row.userUrn === null ? null : { roleUrn: row.roleUrn } };
      });
    },

    findToken(id: string): TokenRow | undefined {
      return tokenQuery.get({ id });
    },

    insertToken(row: TokenRow): void {
      orm.insert(accessTokens).values(row).run();
    },

    /** Whether a row was deleted. */
    deleteToken(id: string): boolean {
      return orm.delete(accessTokens).where(eq(accessTokens.id, id)).run().changes > 0;
    },

    /** Newest expiry first, never-expiring last (DataHub sorts by expiresAt descending). */
    listTokens(options: { filters: TokenFilter[]; start: number; count: number }): { total: number; rows: TokenRow[] } {
      const conditions: SQL[] = options.filters.map((f) =>
        f.negated ? notInArray(filterColumn[f.field], f.values) : inArray(filterColumn[f.field], f.values),
      );
      const where = conditions.length ? and(...conditions) : undefined;
      const total = orm.select({ n: count() }).from(accessTokens).where(where).get()?.n ?? 0;
      const rows = orm
        .select()
        .from(accessTokens)
        .where(where)
        .orderBy(sql`${accessTokens.expiresAt} IS NULL`, desc(accessTokens.expiresAt), desc(accessTokens.createdAt), accessTokens.id)
        .limit(options.count)
        .offset(options.start)
        .all();
      return { total, rows };
    },

    findUser(urn: string): UserRow | undefined {
      return userQuery.get({ urn });
    },

    /** Sets (or with null removes) the role of every actor, creating unknown users, all or nothing. */
    assignRole(roleUrn: string | null, actors: readonly string[], nowMs: number): void {
      orm.transaction((tx) => {
        for (const actorUrn of actors) {
          tx.insert(users)
            .values({ actorUrn, roleUrn, createdAt: nowMs })
            .onConflictDoUpdate({ target: users.actorUrn, set: { roleUrn } })
            .run();
        }
      });
    },
  };
}

export type Store = ReturnType<typeof createStore>;
