import type { CodegenConfig } from '@graphql-codegen/cli';
import { createRequire } from 'node:module';

// The committed SDL, found through @mds/schema's `exports` like any consumer would (no path into the package).
const schema = createRequire(import.meta.url).resolve('@mds/schema/schema.graphql');

/** Typed documents for the client's operations: result and variable types checked against the server's schema. */
const config: CodegenConfig = {
  schema,
  documents: 'src/operations/*.graphql',
  generates: {
    'src/generated/graphql.ts': {
      plugins: ['typescript', 'typescript-operations', 'typed-document-node'],
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        onlyOperationTypes: true,
        skipTypename: true,
        scalars: { Long: 'number' },
        maybeValue: 'T | null',
        inputMaybeValue: 'T | null | undefined',
      },
    },
  },
};
export default config;
