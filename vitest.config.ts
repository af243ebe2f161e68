import { defineConfig } from 'vitest/config';

// Run every package's tests from the root (`npx vitest`); CI runs them per package through turbo.
export default defineConfig({ test: { projects: ['packages/*', 'apps/*'] } });
