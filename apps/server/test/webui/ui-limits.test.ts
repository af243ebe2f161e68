import { parse, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createGraphQLExecutor } from '../../src/graphql';
import { operationCost } from '../../src/graphql-cost';
import { graphqlLimitPlugins } from '../../src/graphql-limits';
import { createLogger } from '../../src/logger';
import { schemaFromCoordinates } from './coordinates';
import { DATAHUB_COORDINATES, readList } from './ratchet';
import { readUiDocuments } from './ui-documents';
import { bootstrapPlaceholders, fillPlaceholders, readUiVariables } from './ui-queries';

// mds's GraphQL limits with their defaults, as the server applies them (graphql-limits.ts), on DataHub's own schema
// rebuilt from its coordinates, with no resolvers: every root field answers null, so what is measured is only whether
// the limits let the UI's documents through.
const schema = schemaFromCoordinates(readList(DATAHUB_COORDINATES));
const limits = loadConfig({ NODE_ENV: 'test' }).graphql;
const execute = createGraphQLExecutor({ schema, logger: createLogger('silent'), plugins: graphqlLimitPlugins(limits) });
const context = { requestId: 'r', actor: { urn: 'urn:li:corpuser:datahub', privileges: new Set<never>() } };
const { operations } = readUiDocuments();
const calls = readUiVariables();
const { values } = bootstrapPlaceholders();

/** Every operation of the UI with every variables object its pages send (none known: no variables). */
const sent = operations.flatMap((op) => {
  const known = op.kind === 'mutation' ? calls.mutations[op.name] : calls.queries[op.name];
  const variables = (known?.length ? known.map((call) => call.variables) : [{}]).map(
    (v) => fillPlaceholders(v, values) as Record<string, unknown>,
  );
  return variables.map((v) => ({ op, variables: v, query: print(op.document) }));
});

const ATTACK = `query { ${Array.from(
  { length: 8 },
  (_, i) =>
    `a${i}: searchAcrossEntities(input: {query: "*", count: 1000, types: [DATASET]}) { total searchResults { entity { urn ... on Dataset { properties { description } schemaMetadata { fields { fieldPath } } ownership { owners { owner { ... on CorpUser { urn } } } } tags { tags { tag { urn } } } } } } }`,
).join(' ')} }`;

describe("mds's default GraphQL limits and DataHub's web UI", () => {
  it('let every query and mutation of the UI through, with every variables object its pages send', { timeout: 180_000 }, async () => {
    expect(sent.length).toBeGreaterThan(268);
    const refused: string[] = [];
    let most = { cost: 0, name: '' };
    for (const { op, variables, query } of sent) {
      const answer = await execute({ query, operationName: op.name, variables }, context);
      const limited = (answer.result.errors ?? []).filter((e) => /limit|exceeded|Syntax Error/i.test(e.message));
      if (limited.length) refused.push(`${op.name}: ${limited.map((e) => e.message).join('; ')}`);
      const { cost } = operationCost(schema, op.document, op.name, variables);
      if (cost > most.cost) most = { cost, name: op.name };
    }
    expect(refused).toEqual([]);
    // The costliest of them, for the README's numbers: two lineage counts of 2,000 each.
    expect(most).toEqual({ cost: 4000, name: 'getSearchAcrossLineageCounts' });
  });

  it("refuse the hostile-load issue's eight searches of 1,000 datasets, and a page of 10,000, before any read", async () => {
    expect(operationCost(schema, parse(ATTACK), undefined, {}).cost).toBe(8000);
    const attack = await execute({ query: ATTACK }, context);
    expect([attack.status, attack.result.errors?.[0]?.message]).toEqual([
      400,
      `Query cost limit of ${limits.maxComplexity} exceeded: this query costs 8000 (GRAPHQL_QUERY_COMPLEXITY_LIMIT; a page asking for n items costs n)`,
    ]);
    const wide = await execute({ query: '{ searchAcrossEntities(input: {query: "*", count: 10000}) { total } }' }, context);
    expect(wide.result.errors?.[0]?.message).toMatch(/^Query cost limit of 5000 exceeded: this query costs 10000/);
    const urns = Array.from({ length: 6000 }, (_, i) => `urn:li:corpuser:u${i}`);
    const many = await execute({ query: 'query q($urns: [String!]!) { entities(urns: $urns) { urn } }', variables: { urns } }, context);
    expect(many.result.errors?.[0]?.message).toMatch(/^Query cost limit of 5000 exceeded: this query costs 6000/);
  });
});
