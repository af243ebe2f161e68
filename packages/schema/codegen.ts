import type { CodegenConfig } from '@graphql-codegen/cli';
import { MODULE_SDL_GLOBS } from './src/repository-sdl';

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
        // Entities answered from their aspects field by field: a resolver hands on the urn, the fields resolve themselves.
        mappers: {
          ...Object.fromEntries(
            [
              'Dataset',
              'Dashboard',
              'Chart',
              'DataFlow',
              'DataJob',
              'Container',
              'CorpUser',
              'CorpGroup',
              'Domain',
              'DataPlatform',
              'DataPlatformInstance',
              'GlossaryTerm',
              'GlossaryNode',
              'DataProduct',
              'OwnershipTypeEntity',
              'Tag',
            ].map((type) => [type, '../mappers#EntityParent']),
          ),
          BrowsePathEntry: '../mappers#BrowsePathFolder',
        },
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        maybeValue: 'T | null | undefined',
      },
    },
  },
};
export default config;
