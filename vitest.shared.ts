import { defineProject } from 'vitest/config';

/** The one vitest setup every package uses: tests run from TypeScript source, no build step. */
export function packageProject(name: string, overrides: { testTimeout?: number; include?: string[] } = {}) {
  return defineProject({
    test: {
      name,
      include: overrides.include ?? ['test/**/*.test.ts'],
      environment: 'node',
      testTimeout: overrides.testTimeout ?? 20_000,
      hookTimeout: 60_000,
      pool: 'forks',
    },
  });
}
