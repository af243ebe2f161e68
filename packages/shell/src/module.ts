import { ENTITY_SPECS } from '@mds/core';
import { sdlFiles, type Domain } from '@mds/schema';
import { parseShellConfig } from './config';
import { ShellEdits } from './edits';
import { createShellResolvers } from './graphql/resolvers';
import { homePageResolvers } from './home-page';
import { ShellService, type ShellDeps } from './service';

/** The SDL of the app shell, beside its resolvers. */
const TYPE_DEFS = sdlFiles(new URL('./graphql/', import.meta.url), 'shell.graphql', 'shell-mutations.graphql', 'home-page.graphql');

export interface CreateShellDeps extends Omit<ShellDeps, 'config'> {
  /** The environment DataHub's settings are read from (ShellConfigError on a bad value). */
  env: NodeJS.ProcessEnv;
}

export type Shell = Domain<ShellService>;

/** The module named 'shell' (src/graphql/shell.graphql and its resolvers) and its service. */
export async function createShell(deps: CreateShellDeps): Promise<Shell> {
  const service = new ShellService({
    config: parseShellConfig(deps.env),
    version: deps.version,
    entities: deps.entities,
    analyticsEnabled: deps.analyticsEnabled,
  });
  // DataHub's EntityTypeMapper.getName: the registry name of a GraphQL EntityType (DATA_FLOW → dataFlow).
  const edits = new ShellEdits(
    deps.entities.service,
    (type) => ENTITY_SPECS.find((e) => e.graphqlType === type)?.name ?? type.toLowerCase(),
  );
  return {
    module: {
      name: 'shell',
      typeDefs: TYPE_DEFS,
      resolvers: [createShellResolvers(service, edits), homePageResolvers(deps.entities.service)],
    },
    service,
  };
}
