import type { ApiModule } from '@mds/schema';

/** The host's own slice of the schema: facts about this server. */
export function createCoreModule(version: string): ApiModule {
  return { name: 'core', resolvers: { Query: { appConfig: () => ({ appVersion: version }) } } };
}
