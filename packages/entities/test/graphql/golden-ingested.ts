import type { TestSqlDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { schemaOf } from './schema';
import { createEntities, createEntityGraphql, fileItemProposals, SYSTEM_ACTOR } from '../../src/index';

export const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };

/** The items of one of DataHub's golden files under test/fixtures/datahub (sources in its SOURCES.md). */
export const goldenItems = (file: string): unknown[] =>
  JSON.parse(readFileSync(new URL(`../fixtures/datahub/${file}`, import.meta.url), 'utf8')) as unknown[];

/**
 * A fresh entities module holding the items of DataHub's golden files, ingested as `datahub ingest` sends them, and a
 * `query` that runs a document against this package's GraphQL face, failing on any error.
 */
export async function goldenGraphql(databases: Pick<TestSqlDatabases, 'open'>, files: readonly string[], now = () => 1_700_000_000_000) {
  const entities = await createEntities({ db: await databases.open(), now });
  const placed = files.flatMap((file) => goldenItems(file).flatMap((item, i) => fileItemProposals(item, `${file}[${i}]`)));
  await entities.service.ingest(SYSTEM_ACTOR, placed, { batch: true });
  const schema: GraphQLSchema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search, now }));
  const query = async (source: string, variableValues?: Record<string, unknown>): Promise<any> => {
    const result = await graphql({ schema, source, variableValues, contextValue: context });
    if (result.errors?.length) throw new Error(result.errors.map((e) => `${e.message} at ${e.path?.join('.')}`).join('\n'));
    return result.data;
  };
  return { ...entities, schema, query };
}
