import type { CodegenConfig } from '@graphql-codegen/cli';
import { MODULE_SDL_GLOBS, repositoryTypeDefs } from './src/repository-sdl';
import { entityTypeNamesOf } from './src/entity-types';
import { BASE_TYPE_DEFS } from './src/sdl';

const entityTypeNames = () => entityTypeNamesOf([...BASE_TYPE_DEFS, ...repositoryTypeDefs()]);

// Resolver types for every package, generated from every SDL file of the repository (each beside its resolvers), so
// a resolver that drifts from the schema fails typecheck.
const config: CodegenConfig = {
  schema: ['sdl/*.graphql', ...MODULE_SDL_GLOBS.map((glob) => `../../${glob}`)],
  generates: {
    'src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        contextType: '../context#ApiContext',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { Long: 'number' },
        defaultMapper: 'Partial<{T}>',
        // Entities (every object type implementing Entity) answered from their aspects field by field: a resolver hands
        // on the urn, the fields resolve themselves.
        mappers: {
          ...Object.fromEntries(entityTypeNames().map((type) => [type, '../mappers#EntityParent'])),
          BrowsePathEntry: '../mappers#BrowsePathFolder',
        },
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        maybeValue: 'T | null | undefined',
      },
    },
  },
};
export default config;
