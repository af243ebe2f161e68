import { sdlFiles, type Domain } from '@mds/schema';
import type { SqlDatabase } from '@mds/db';
import { fileURLToPath } from 'node:url';
import { SYSTEM_ACTOR_URN } from './actors';
import { createAuthenticator, type Authenticator } from './authenticate';
import { createCredentials, type Credentials } from './credentials/service';
import type { ScryptCost } from './credentials/passwords';
import { createStore } from './db/store';
import { createResolvers } from './graphql/resolvers';
import { createRoleKeeper, type RoleDirectory } from './role-keeper';
import { ROLES, type Role } from './roles';
import type { SystemClient, TokenSecrets } from './secrets';
import { createTokenService, type TokenService } from './token-service';
import { signingKeyOf } from './tokens-jwt';

export interface AuthOptions {
  /** The shared database (SQLite or PostgreSQL); auth owns its `users`, `access_tokens` and `first_start` tables. */
  db: SqlDatabase;
  secrets: TokenSecrets;
  /** Turns on `Authorization: Basic <id>:<secret>`; absent, Basic is refused. */
  systemClient?: SystemClient;
  /** Allow NO_EXPIRY tokens (`ACCESS_TOKEN_ALLOW_NO_EXPIRY=true`). */
  allowNoExpiry?: boolean;
  /** DataHub's `SECRET_SERVICE_ENCRYPTION_KEY`: verifies the native passwords of a database migrated from DataHub. */
  datahubSecret?: string;
  /** Lifetime of a sign-in's session token (`SESSION_TOKEN_DURATION_MS`; DataHub's default, one day). */
  sessionDurationMs?: number;
  /** scrypt's cost for new passwords (tests lower it). */
  scryptCost?: ScryptCost;
  /** Clock in milliseconds (tests inject one). */
  now?: () => number;
}

/** What the host, the CLI and the tests call: authentication, tokens and roles. */
export interface AuthService {
  /** The caller behind an `Authorization` header, or null: the host answers 401. Synchronous when known and cached. */
  authenticate: Authenticator['authenticate'];
  /** Operator access for the CLI: validates input but bypasses privilege checks. */
  tokens: Pick<TokenService, 'create' | 'list' | 'revoke' | 'find'>;
  roles: {
    /** Sets (null: removes) the role of each user or group, creating unknown users. */
    assign(roleUrn: string | null, actors: string[]): Promise<void>;
    list(): Omit<Role, 'privileges'>[];
    /** The role of a user (its own, else a group's): a role urn, null for none, undefined for an unknown user. */
    of(actorUrn: string): Promise<string | null | undefined>;
    /**
     * Makes the entity store's `roleMembership` aspects the record of roles (the host, once the store is open), after
     * copying the users table's roles into it; answers how many were copied.
     */
    attach(directory: RoleDirectory): Promise<number>;
  };
  /** Native users' passwords, invite tokens, session tokens (src/credentials). */
  credentials: Credentials;
}

/**
 * The module is named 'auth': src/graphql/auth.graphql and its resolvers. `isFirstStart` is true for exactly one
 * createAuth per database, ever: the first on a fresh database, even among replicas starting together (an atomic
 * claim); false for a database already in use before this version. The host prints a dev root token then.
 */
export type Auth = Domain<AuthService, { isFirstStart: boolean }>;

const MIGRATIONS = {
  sqlite: fileURLToPath(new URL('../migrations/sqlite', import.meta.url)),
  postgres: fileURLToPath(new URL('../migrations/postgres', import.meta.url)),
};
const OWNER = 'auth';
/** The SDL of tokens, roles and `me`, beside their resolvers. */
const TYPE_DEFS = sdlFiles(new URL('./graphql/', import.meta.url), 'auth.graphql', 'credentials.graphql');

/** Applies auth's migrations, claims the first start, then wires storage, token service, authentication and resolvers. */
export async function createAuth(options: AuthOptions): Promise<Auth> {
  const { db, secrets, systemClient, allowNoExpiry = false, now = Date.now } = options;
  await db.migrate({ owner: OWNER, folder: MIGRATIONS[db.dialect] });
  const store = createStore(db);
  const isFirstStart = await store.claimFirstStart(now());

  const signingKey = signingKeyOf(secrets.signingKey);
  const roles = createRoleKeeper(store, now);
  const tokens = createTokenService({ store, signingKey, salt: secrets.salt, allowNoExpiry, now });
  const authenticator = createAuthenticator({ store, signingKey, salt: secrets.salt, systemClient, now, privilegesOf: roles.privilegesOf });
  const credentials = createCredentials({
    store,
    signingKey,
    salt: secrets.salt,
    signingSecret: secrets.signingKey,
    datahubSecret: options.datahubSecret,
    sessionDurationMs: options.sessionDurationMs,
    scryptCost: options.scryptCost,
    assignRole: roles.assign,
    now,
  });

  return {
    module: {
      name: OWNER,
      typeDefs: TYPE_DEFS,
      resolvers: createResolvers({ tokens, roles, credentials }),
      close: () => authenticator.clearCache(),
    },
    service: {
      authenticate: (authorization) => authenticator.authenticate(authorization),
      tokens,
      credentials,
      roles: {
        assign: (roleUrn, actors) => roles.assign(roleUrn, actors, SYSTEM_ACTOR_URN),
        list: () => ROLES.map(({ urn, name, description }) => ({ urn, name, description })),
        of: roles.of,
        attach: roles.attach,
      },
    },
    isFirstStart,
  };
}
