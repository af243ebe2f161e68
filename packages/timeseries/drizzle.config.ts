import { defineConfig } from 'drizzle-kit';

// SQLite only (the embedded store's bookkeeping tables): migrations/postgres is written by hand, since the PostgreSQL
// store's tables are not those of src/db/schema.ts (drizzle-kit needs one config per dialect anyway).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations/sqlite',
});
