import { defineConfig } from 'drizzle-kit';

// SQLite only: migrations/postgres mirrors each generated migration by hand (drizzle-kit needs one config per dialect).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations/sqlite',
});
