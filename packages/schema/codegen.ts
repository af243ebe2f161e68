import type { CodegenConfig } from '@graphql-codegen/cli';

// Resolver types for every package, generated from the SDL so a resolver that drifts from the schema fails typecheck.
const config: CodegenConfig = {
  schema: 'sdl/*.graphql',
  generates: {
    'src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        contextType: '../context#ApiContext',
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { Long: 'number' },
        defaultMapper: 'Partial<{T}>',
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        maybeValue: 'T | null | undefined',
      },
    },
  },
};
export default config;
