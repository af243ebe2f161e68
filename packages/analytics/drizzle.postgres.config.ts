import { defineConfig } from 'drizzle-kit';

// migrations/postgres, generated from the description in src/db/schema.ts (`pnpm db:generate` runs both configs).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './migrations/postgres',
});
