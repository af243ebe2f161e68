import { createRequire } from 'node:module';
import { defineProject } from 'vitest/config';

// graphql 16 has no `exports` map: Vite would hand our source `index.mjs` while Node hands dependencies (Yoga,
// graphql-tools) `index.js`, giving two GraphQLError classes. Resolve everyone to the copy Node itself loads.
const graphqlEntry = createRequire(import.meta.url).resolve('graphql', { paths: [new URL('./packages/schema', import.meta.url).pathname] });

/** The one vitest setup every package uses: tests run from TypeScript source, no build step. */
export function packageProject(name: string, overrides: { testTimeout?: number; exclude?: string[] } = {}) {
  return defineProject({
    resolve: { alias: [{ find: /^graphql$/, replacement: graphqlEntry }] },
    test: {
      name,
      include: ['test/**/*.test.ts'],
      exclude: ['**/node_modules/**', ...(overrides.exclude ?? [])],
      environment: 'node',
      // A bound against hangs, not a speed check: CI is a busy 2-core machine where a test taking 1 s idle takes 10-20 s
      // (the policy table's rows and the glossary's e2e reached 20 s on a machine loaded 15-fold).
      testTimeout: overrides.testTimeout ?? 60_000,
      hookTimeout: 180_000,
      pool: 'forks',
    },
  });
}
