import { defineConfig } from 'drizzle-kit';

// migrations/postgres, generated from the description in src/store/tables.ts (`pnpm db:generate` runs both configs). Its
// first migrations were written by hand before the description existed; meta/0001_snapshot.json records what they
// create, so drizzle-kit generates only what changes from there.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/store/tables.ts', './src/store/outbox.ts'],
  out: './migrations/postgres',
});
