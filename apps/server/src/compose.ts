import { createAnalytics, type Analytics } from '@mds/analytics';
import { createAuth, createAuthEndpoints, resolveAllowNoExpiry, resolveSystemClient, resolveTokenSecrets, type Auth } from '@mds/auth';
import { masked } from '@mds/db';
import { createEntities, createEntityGraphql, entityRoleDirectory, entityUserDirectory, type Entities } from '@mds/entities';
import { createShell, type Shell } from '@mds/shell';
import { createTags, type Tags } from '@mds/tags';
import { createTimeseries, parseTimeseriesConfig, type Timeseries } from '@mds/timeseries';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config';
import { createSignInPages } from './http/sign-in';
import { isUnreachable } from './http/unavailable';
import type { Logger } from './logger';
import type { Composition } from './server';
import { openStorage } from './storage';
import { version } from './version';

/** Each domain package as its factory answered it: `{ module, service, ... }`. */
export interface Domains {
  auth: Auth;
  tags: Tags;
  timeseries: Timeseries;
  entities: Entities;
  shell: Shell;
  analytics: Analytics;
}

/** Where compose reports how it stores data (the server's logger; the CLI, whose output is its answer, passes none). */
type StartLog = Pick<Logger, 'info' | 'warn'>;

/**
 * The composition root: opens the stores and builds each package's module. Tokens and roles, entities (tags among
 * them) as versioned aspects and their search index live in SQLite files in DATA_DIR (`mds.db`, `entities.db`) or in
 * one PostgreSQL database shared by every replica; time-series data apart (embedded, tables of its own in that
 * PostgreSQL database, or Elasticsearch), so truncation never blocks other writes. The entities package owns Rest.li
 * ingestion and hands time-series aspects to the time-series package.
 */
export async function compose(
  config: Pick<Config, 'dataDir' | 'env' | 'production' | 'database' | 'authorization'>,
  log?: StartLog,
): Promise<Composition & Domains> {
  log?.info(config.database.logLine);
  const storage = openStorage(config.database, config.dataDir);
  try {
    const secrets = resolveTokenSecrets({ env: config.env, dataDir: config.dataDir, production: config.production });
    const timeseriesConfig = parseTimeseriesConfig(config.env, { database: config.database.dialect });
    if (config.database.dialect === 'postgres') warnOfLocalState(config, timeseriesConfig.backend, log);
    const auth = await createAuth({
      db: storage.auth,
      secrets,
      systemClient: resolveSystemClient(config.env),
      allowNoExpiry: resolveAllowNoExpiry(config.env),
      datahubSecret: config.env.SECRET_SERVICE_ENCRYPTION_KEY || undefined,
      sessionDurationMs: sessionDurationOf(config.env),
    });
    const timeseries = await createTimeseries({ dataDir: config.dataDir, config: timeseriesConfig, database: storage.entities });
    const entities = await createEntities({
      db: storage.entities,
      timeseries: timeseries.service.ingest,
      points: timeseries.service.read,
      authorization: config.authorization,
    });
    // Roles are the entity store's roleMembership aspects (DataHub's record); the users table's move there once.
    await auth.service.roles.attach(entityRoleDirectory(entities.service, storage.entities.commitStamp));
    // Tags are entities of the aspect store; an older mds kept them in mds.db, from where they move on first start.
    const tags = await createTags({ entities, legacy: storage.legacy });
    // Entity-wide GraphQL queries answer each type through the package that owns it.
    // What the web UI asks before any page: settings, the caller's flags, views, steps, posts, counts.
    const shell = await createShell({ env: config.env, version, entities, analyticsEnabled: true });
    const entityGraphql = createEntityGraphql({
      service: entities.service,
      search: entities.search,
      faces: { TAG: tags.face },
      describers: { tag: tags.describe },
      userRemoved: (urn) => auth.service.credentials.forgetUser(urn),
      secretKey: config.env.SECRET_SERVICE_ENCRYPTION_KEY || undefined,
    });
    const nativeUsers = auth.service.credentials.nativeUsers(entityUserDirectory(entities.service));
    const analytics = await createAnalytics({
      db: storage.analytics,
      entities: entities.service,
      search: entities.search,
    });
    return {
      // Closed last to first: the shared database after every module that uses it.
      modules: [
        { name: 'database', ready: storage.readinessCheck, close: () => storage.close() },
        auth.module,
        timeseries.module,
        entities.module,
        tags.module,
        shell.module,
        entityGraphql,
        analytics.module,
        // DataHub's /auth/* endpoints its frontend signs users in with.
        createAuthEndpoints(auth.service.credentials, nativeUsers, analytics.service.track),
      ],
      // DataHub's frontend's sign-in routes, so its web UI needs no frontend server.
      pages: createSignInPages({ auth, nativeUsers }),
      revokeSession: (token: string) => auth.service.credentials.revokeSession(token),
      authenticate: auth.service.authenticate,
      auth,
      tags,
      timeseries,
      entities,
      shell,
      analytics,
    };
  } catch (error) {
    await storage.entities.close();
    await storage.analytics.close();
    await storage.close();
    // A database down at start is the operator's to fix, not a bug: one line naming it (password masked), no stack.
    if (config.database.dialect === 'postgres' && isUnreachable(error)) {
      throw new DatabaseUnreachableError(`cannot reach PostgreSQL at ${masked(config.database.url)}: ${(error as Error).message}`);
    }
    throw error;
  }
}

/** SESSION_TOKEN_DURATION_MS (DataHub's variable): the lifetime of a sign-in's session token; DataHub's default when unset. */
function sessionDurationOf(env: Config['env']): number | undefined {
  const text = env.SESSION_TOKEN_DURATION_MS;
  if (!text) return undefined;
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new Error(`Invalid SESSION_TOKEN_DURATION_MS=${JSON.stringify(text)}: a positive number of milliseconds`);
  return ms;
}

class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

/**
 * What a replica on PostgreSQL still keeps to itself, said once at start: development token secrets generated into
 * DATA_DIR unless given, which other replicas refuse. Also an embedded installation's entities left in DATA_DIR, which
 * a switch to PostgreSQL does not carry over, and the time series an older replica kept there.
 */
function warnOfLocalState({ env, dataDir }: Pick<Config, 'env' | 'dataDir'>, timeseriesBackend: string, log: StartLog | undefined): void {
  if (existsSync(join(dataDir, 'entities.db'))) {
    log?.warn(
      `${join(dataDir, 'entities.db')} holds the entities of an embedded installation, which this PostgreSQL database does not have: they are not served (mds migrate-to-postgres --from ${dataDir} copies them)`,
    );
  }
  if (timeseriesBackend === 'postgres' && existsSync(join(dataDir, 'timeseries.db'))) {
    log?.warn(
      `${join(dataDir, 'timeseries.db')} holds time-series data an older mds kept local to this replica: it is not served, time series now live in PostgreSQL`,
    );
  }
  if (!env.DATAHUB_TOKEN_SERVICE_SIGNING_KEY || !env.DATAHUB_TOKEN_SERVICE_SALT) {
    log?.warn(
      'token secrets are generated into DATA_DIR/secrets.json, local to this replica: give every replica the same DATAHUB_TOKEN_SERVICE_SIGNING_KEY and DATAHUB_TOKEN_SERVICE_SALT, or a token minted on one is refused by the others',
    );
  }
}
