// Lint for real defects, not style: unused code, promises nobody awaits or handles, `any` where a type is cheap.
// Type-aware rules run on the TypeScript sources through each package's own tsconfig (typescript-eslint's project
// service); plain JavaScript (scripts, workers, bin shims) gets the rules that need no types.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const ENTITIES_STORE = 'Use what @mds/entities exports: its entity service, never its store.';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/src/generated/**', '**/test-output/**', 'bench/results/**', 'coverage/**'] },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    // @mds/entities in layers: the aspect store (src/store/) is reached only through the entity service (src/service/)
    // and by the package's composition (src/module.ts, src/index.ts); the faces (restli/, openapi/, graphql/, routes/)
    // and the pure model (model/) go through the service. The store's and the service's own tests are theirs.
    files: ['packages/entities/src/**/*.ts', 'packages/entities/test/**/*.ts'],
    ignores: [
      'packages/entities/src/store/**',
      'packages/entities/src/service/**',
      'packages/entities/src/module.ts',
      'packages/entities/src/index.ts',
      'packages/entities/test/store/**',
      'packages/entities/test/service/**',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/store', '**/store/*'], message: 'Only the entity service (src/service/) may use the aspect store.' }] },
      ],
    },
  },
  {
    // Every other package and app reaches entities through @mds/entities' exports (its service), never its store; the
    // bare store (@mds/entities/raw-store) is the benchmark's measure of ingestion without checks, for bench/ alone.
    files: ['packages/**/*.ts', 'apps/**/*.ts'],
    ignores: ['packages/entities/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@mds/entities/src/*', '**/entities/src/*'], message: ENTITIES_STORE },
            { group: ['@mds/entities/raw-store'], message: 'The bare store writes without any check: pnpm bench alone uses it.' },
          ],
        },
      ],
    },
  },
  {
    files: ['bench/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@mds/entities/src/*', '**/entities/src/*'], message: ENTITIES_STORE }] }],
    },
  },
  {
    // The operations console runs in the browser.
    files: ['packages/console/src/ui/**'],
    languageOptions: { globals: globals.browser },
  },
  {
    // Tests read untyped JSON answers field by field; typing each would say nothing the assertions do not.
    files: ['**/test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
