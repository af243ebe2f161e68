import type { ApiModule } from '@mds/schema';
import { applyMigrations, type SqliteDatabase } from '@mds/db';
import { fileURLToPath } from 'node:url';
import { requireCorpUserUrn, requireNotSystemActor } from './actors';
import { createAuthenticator, type Authenticator } from './authenticate';
import { createStore } from './db/store';
import { createResolvers } from './resolvers';
import { requireRoleUrn, ROLES, type Role } from './roles';
import type { SystemClient, TokenSecrets } from './secrets';
import { createTokenService, type TokenService } from './token-service';
import { signingKeyOf } from './tokens-jwt';

export interface AuthOptions {
  /** The shared SQLite file; auth owns its `users` and `access_tokens` tables. */
  db: SqliteDatabase;
  secrets: TokenSecrets;
  /** Turns on `Authorization: Basic <id>:<secret>`; absent, Basic is refused. */
  systemClient?: SystemClient;
  /** Allow NO_EXPIRY tokens (`ACCESS_TOKEN_ALLOW_NO_EXPIRY=true`). */
  allowNoExpiry?: boolean;
  /** Clock in milliseconds (tests inject one). */
  now?: () => number;
}

export interface Auth {
  /** Name 'auth': the resolvers of sdl/auth.graphql. */
  module: ApiModule;
  /** The caller behind an `Authorization` header, or null: the host answers 401. Synchronous once the token is known. */
  authenticate: Authenticator['authenticate'];
  /** Operator access for the CLI: validates input but bypasses privilege checks. */
  tokens: Pick<TokenService, 'create' | 'list' | 'revoke' | 'find'>;
  roles: {
    /** Sets (null: removes) the role of each actor, creating unknown users. */
    assign(roleUrn: string | null, actors: string[]): void;
    list(): Omit<Role, 'privileges'>[];
    /** The role of a user: a role urn, null for none, undefined for an unknown user. */
    of(actorUrn: string): string | null | undefined;
  };
  /** True when this call applied the very first migration (a fresh database): the host prints a dev root token then. */
  isFirstStart: boolean;
}

const MIGRATIONS = fileURLToPath(new URL('../migrations', import.meta.url));
const OWNER = 'auth';

/** Applies auth's migrations, then wires storage, token service, authentication and resolvers. */
export function createAuth(options: AuthOptions): Auth {
  const { db, secrets, systemClient, allowNoExpiry = false, now = Date.now } = options;
  const isFirstStart = !hasAppliedMigrations(db);
  applyMigrations(db, { folder: MIGRATIONS, owner: OWNER });

  const store = createStore(db);
  const signingKey = signingKeyOf(secrets.signingKey);
  const tokens = createTokenService({ store, signingKey, salt: secrets.salt, allowNoExpiry, now });
  const authenticator = createAuthenticator({ store, signingKey, salt: secrets.salt, systemClient, now });

  return {
    module: { name: OWNER, resolvers: createResolvers({ tokens, store, now }), close: () => authenticator.clearCache() },
    authenticate: (authorization) => authenticator.authenticate(authorization),
    tokens,
    roles: {
      assign(roleUrn, actors) {
        const role = requireRoleUrn(roleUrn, 'roleUrn');
        for (const actor of actors) {
          requireCorpUserUrn(actor, 'actors');
          requireNotSystemActor(actor, 'actors');
        }
        store.assignRole(role, [...new Set(actors)], now());
      },
      list: () => ROLES.map(({ urn, name, description }) => ({ urn, name, description })),
      of(actorUrn) {
        const user = store.findUser(actorUrn);
        return user ? user.roleUrn : undefined;
      },
    },
    isFirstStart,
  };
}

function hasAppliedMigrations(db: SqliteDatabase): boolean {
  const table = `__migrations_${OWNER}`;
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table)) return false;
  return db.prepare(`SELECT 1 FROM "${table}" LIMIT 1`).get() !== undefined;
}
