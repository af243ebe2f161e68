import { sdlFiles, type ApiModule } from '@mds/schema';

/** The host's own slice of the schema (app-config.graphql, beside this file): facts about this server. */
const TYPE_DEFS = sdlFiles(import.meta.url, 'app-config.graphql');

export function createCoreModule(version: string): ApiModule {
  return { name: 'core', typeDefs: TYPE_DEFS, resolvers: { Query: { appConfig: () => ({ appVersion: version }) } } };
}
