import { createAuth, resolveAllowNoExpiry, resolveSystemClient, resolveTokenSecrets, type Auth } from '@mds/auth';
import { openDatabase, openSqliteDatabase } from '@mds/db';
import { createEntities, createEntityGraphql, type Entities } from '@mds/entities';
import { createOpenApi } from '@mds/openapi';
import { createTagsModule, type TagStore } from '@mds/tags';
import { createTimeseries, parseTimeseriesConfig, type Timeseries } from '@mds/timeseries';
import { join } from 'node:path';
import type { Config } from './config';
import type { Composition } from './server';

export interface Domains {
  auth: Auth;
  tags: TagStore;
  timeseries: Timeseries;
  entities: Entities;
}

/**
 * The composition root: opens the stores and builds each package's module. Tokens and roles live in `mds.db`;
 * entities (tags among them) as versioned aspects in `entities.db`, time-series data apart so truncation never
 * blocks other writes. The entities package owns Rest.li ingestion and hands time-series aspects to the time-series
 * package.
 */
export async function compose(config: Pick<Config, 'dataDir' | 'env' | 'production'>): Promise<Composition & Domains> {
  const db = openDatabase(join(config.dataDir, 'mds.db'));
  // Auth reaches mds.db through the storage port; the synchronous connection above serves only the legacy tag move.
  const authDb = openSqliteDatabase(join(config.dataDir, 'mds.db'));
  try {
    const secrets = resolveTokenSecrets({ env: config.env, dataDir: config.dataDir, production: config.production });
    const auth = await createAuth({
      db: authDb,
      secrets,
      systemClient: resolveSystemClient(config.env),
      allowNoExpiry: resolveAllowNoExpiry(config.env),
    });
    const timeseries = await createTimeseries({ dataDir: config.dataDir, config: parseTimeseriesConfig(config.env) });
    const entities = await createEntities({ db: openSqliteDatabase(join(config.dataDir, 'entities.db')), timeseries: timeseries.ingest });
    // Tags are entities of the aspect store; an older mds kept them in mds.db, from where they move on first start.
    const tags = await createTagsModule({ entities, legacy: db });
    const openapi = createOpenApi({ entities, timeseries: timeseries.ingest });
    // Entity-wide GraphQL queries answer each type through the package that owns it.
    const entityGraphql = createEntityGraphql({
      store: entities.store,
      search: entities.search,
      faces: { TAG: tags.face },
      describers: { tag: tags.describe },
      timeseries: timeseries.read,
    });
    return {
      // Closed last to first: the shared database after every module that uses it.
      modules: [{ name: 'mds.db', close: () => (db.close(), authDb.close()) }, auth.module, timeseries.module, entities.module, openapi, tags.module, entityGraphql],
      authenticate: auth.authenticate,
      readinessChecks: [() => timeseries.store.checkReady()],
      metricSources: timeseries.store,
      auth,
      tags: tags.store,
      timeseries,
      entities,
    };
  } catch (error) {
    db.close();
    await authDb.close();
    throw error;
  }
}
