import { buildApiSchema } from '@mds/schema';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

let mds: Mds | undefined;
afterAll(() => mds?.close());

// The server assembles its schema from the modules it composes (each package's SDL beside its resolvers); the tools
// that need the API without a server (resolver types, the committed snapshot, the benchmark's ceiling) read every SDL
// file of the repository. Both must be the same schema.
it('the schema assembled from the composed modules is the committed snapshot, schema.graphql', async () => {
  mds = await startMds();
  const composed = buildApiSchema(mds.domains.modules);
  const snapshot = readFileSync(createRequire(import.meta.url).resolve('@mds/schema/schema.graphql'), 'utf8');
  expect(`${printSchema(lexicographicSortSchema(composed))}\n`).toBe(snapshot.slice(snapshot.indexOf('\n\n') + 2));
});
