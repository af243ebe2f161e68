import { defineConfig } from 'drizzle-kit';

// migrations/postgres, generated from the description in src/db/schema.ts (`pnpm db:generate` runs both configs). Its
// first migration was written by hand before the description existed; meta/0000_snapshot.json records what it creates
// of the described tables, so drizzle-kit generates only what changes from there. search_text is not described:
// a change to it is a migration written by hand (`drizzle-kit generate --custom` makes an empty one in the journal).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './migrations/postgres',
});
