import { defineConfig } from 'drizzle-kit';

// migrations/sqlite, generated from the description in src/db/schema.ts (`pnpm db:generate` runs both configs).
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './migrations/sqlite',
});
