import { parse } from 'graphql';
import { createSchema } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { createGraphQLExecutor } from '../src/graphql';
import { costLimitPlugin, operationCost } from '../src/graphql-cost';
import { createLogger } from '../src/logger';

// The cost model on a small schema shaped like DataHub's: a search page sized by `input.count`, entities behind an
// interface, lists sized by `first` or `limit` and one no argument sizes.
const typeDefs = /* GraphQL */ `
  type Query {
    appConfig: AppConfig
    searchAcrossEntities(input: SearchInput!): SearchResults
    entity(urn: String!): Entity
    recent(limit: Int = 5): [Dataset!]
  }
  input SearchInput {
    query: String!
    start: Int
    count: Int
  }
  type AppConfig {
    appVersion: String
    auth: AuthConfig
  }
  type AuthConfig {
    tokenAuthEnabled: Boolean
  }
  type SearchResults {
    total: Int
    searchResults: [SearchResult!]!
  }
  type SearchResult {
    entity: Entity!
  }
  interface Entity {
    urn: String!
  }
  type Dataset implements Entity {
    urn: String!
    name: String
    fields: [Field!]
    tags(first: Int): [Tag!]
  }
  type Tag implements Entity {
    urn: String!
    name: String
  }
  type Field {
    fieldPath: String
  }
`;
let resolverCalls = 0;
const counted =
  <T>(value: T) =>
  () => {
    resolverCalls++;
    return value;
  };
const schema = createSchema({
  typeDefs,
  resolvers: {
    Query: { appConfig: counted({ appVersion: '1' }), searchAcrossEntities: counted({ total: 0, searchResults: [] }) },
    Entity: { __resolveType: () => 'Dataset' },
  },
});

const cost = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  operationCost(schema, parse(query), operationName, variables);
const search = (input: string, selection = '{ total searchResults { entity { urn } } }') =>
  `{ searchAcrossEntities(input: ${input}) ${selection} }`;

describe('the cost of a selection without lists', () => {
  it('is 1 a leaf and 2 a field with a selection, plus what it selects, at any depth', () => {
    expect(cost('{ appConfig { appVersion } }').cost).toBe(3);
    expect(cost('{ appConfig { appVersion auth { tokenAuthEnabled } } }').cost).toBe(2 + 1 + 2 + 1);
    expect(cost('{ __typename }').cost).toBe(1);
  });

  it('counts every alias, and a field selected twice under one key once, as execution does', () => {
    expect(cost('{ a: appConfig { appVersion } b: appConfig { appVersion } }').cost).toBe(6);
    expect(cost('{ appConfig { appVersion } appConfig { appVersion auth { tokenAuthEnabled } } }').cost).toBe(6);
  });

  it('expands a fragment in each place it is spread', () => {
    const query = `{ a: appConfig { ...f } b: appConfig { ...f ...f } } fragment f on AppConfig { appVersion auth { tokenAuthEnabled } }`;
    expect(cost(query).cost).toBe(2 * (2 + 1 + 3));
  });

  it('costs an interface as its costliest object type', () => {
    const query = '{ entity(urn: "x") { urn ... on Dataset { name fields { fieldPath } } ... on Tag { name } } }';
    expect(cost(query).cost).toBe(2 + (1 + 1 + 3));
  });

  it('leaves introspection out, as before', () => {
    expect(cost('{ __schema { types { name fields { name } } } }').cost).toBe(0);
  });

  it('counts a list no argument sizes as one item', () => {
    expect(cost('{ entity(urn: "x") { ... on Dataset { fields { fieldPath } } } }').cost).toBe(2 + 3);
  });
});

describe('a field asking for n items', () => {
  const perResult = 1 + 2 + 3; // total, searchResults { entity { urn } }

  it('costs 2 plus n times its selection, n from input.count', () => {
    expect(cost(search('{ query: "*", count: 10 }')).cost).toBe(2 + 10 * perResult);
    expect(cost(search('{ query: "*", count: 0 }')).cost).toBe(2);
  });

  it('reads n from variables, whole or in part, and from a variable default', () => {
    const whole = 'query q($input: SearchInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }';
    expect(cost(whole, { input: { query: '*', count: 10 } })).toEqual({ cost: 2 + 10 * perResult });
    const part = 'query q($n: Int) { searchAcrossEntities(input: { query: "*", count: $n }) { total searchResults { entity { urn } } } }';
    expect(cost(part, { n: 7 }).cost).toBe(2 + 7 * perResult);
    const byDefault = 'query q($n: Int = 3) { searchAcrossEntities(input: { query: "*", count: $n }) { total } }';
    expect(cost(byDefault, {}).cost).toBe(2 + 3);
  });

  it('reads `first` and `limit`, and the schema default of a size left out', () => {
    expect(cost('{ entity(urn: "x") { ... on Dataset { tags(first: 4) { urn name } } } }').cost).toBe(2 + 2 + 4 * 2);
    expect(cost('{ recent { urn } }').cost).toBe(2 + 5 * 1);
    expect(cost('{ recent(limit: 50) { urn } }').cost).toBe(2 + 50 * 1);
  });

  it('counts a page the caller did not size as DataHub defaults it (20)', () => {
    expect(cost(search('{ query: "*" }')).cost).toBe(2 + 20 * perResult);
  });

  it('multiplies nested pages', () => {
    const query = search('{ query: "*", count: 10 }', '{ searchResults { entity { ... on Dataset { tags(first: 3) { urn } } } } }');
    expect(cost(query).cost).toBe(2 + 10 * (2 + 2 + (2 + 3 * 1)));
  });

  it('caps n as DataHub does: over 10,000 or negative counts 5,000', () => {
    expect(cost(search('{ query: "*", count: 20000 }', '{ total }')).cost).toBe(2 + 5000);
    expect(cost(search('{ query: "*", count: -1 }', '{ total }')).cost).toBe(2 + 5000);
    expect(cost(search('{ query: "*", count: 10000 }', '{ total }')).cost).toBe(2 + 10_000);
  });

  it('refuses a page reaching past the 10,000-hit result window', () => {
    expect(cost(search('{ query: "*", start: 9990, count: 10 }', '{ total }'))).toEqual({ cost: 2 + 10 });
    const refused = cost(search('{ query: "*", start: 9991, count: 10 }', '{ total }')).refusal;
    expect(refused?.message).toBe(
      'Result window is too large: start + count must be at most 10000, but searchAcrossEntities asks for 9991 + 10 = 10001',
    );
    expect(refused?.extensions).toEqual({ code: 400, type: 'BAD_REQUEST' });
  });

  it('follows @skip and @include', () => {
    const query =
      'query q($big: Boolean!) { appConfig { appVersion } s: searchAcrossEntities(input: { query: "*", count: 100 }) @include(if: $big) { total } }';
    expect(cost(query, { big: false }).cost).toBe(3);
    expect(cost(query, { big: true }).cost).toBe(3 + 2 + 100);
  });

  it('leaves variables that do not coerce to execution, which refuses them', () => {
    expect(cost('query q($n: Int) { recent(limit: $n) { urn } }', { n: 'many' })).toEqual({ cost: 0 });
  });
});

describe('the budget (costLimitPlugin)', () => {
  const execute = createGraphQLExecutor({ schema, logger: createLogger('silent'), plugins: [costLimitPlugin(100)] });
  const context = { requestId: 'r', actor: { urn: 'urn:li:corpuser:u', privileges: new Set<never>() } };

  it('answers an operation over it with a 400 naming the budget and the cost, and runs no resolver', async () => {
    resolverCalls = 0;
    const query = 'query q($input: SearchInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }';
    const answer = await execute({ query, variables: { input: { query: '*', count: 1000 } } }, context);
    expect(answer.status).toBe(400);
    expect(answer.result.errors?.map((e) => e.toJSON())).toEqual([
      {
        message:
          'Query cost limit of 100 exceeded: this query costs 6002 (GRAPHQL_QUERY_COMPLEXITY_LIMIT; a field asking for n items costs n times what it selects)',
        extensions: { code: 400, type: 'BAD_REQUEST' },
      },
    ]);
    expect(resolverCalls).toBe(0);
  });

  it('runs an operation within it, and judges the same document again by its new variables', async () => {
    resolverCalls = 0;
    const query = 'query q($n: Int) { searchAcrossEntities(input: { query: "*", count: $n }) { total } }';
    expect((await execute({ query, variables: { n: 98 } }, context)).status).toBe(200);
    expect(resolverCalls).toBe(1);
    expect((await execute({ query, variables: { n: 99 } }, context)).status).toBe(400);
    expect((await execute({ query, variables: { n: 98 } }, context)).status).toBe(200);
  });

  it('judges the same document again by its variable switches, and by a start past the window', async () => {
    const query =
      'query q($big: Boolean!, $start: Int) { appConfig { appVersion } s: searchAcrossEntities(input: { query: "*", start: $start, count: 100 }) @include(if: $big) { total } }';
    expect((await execute({ query, variables: { big: false, start: 0 } }, context)).status).toBe(200);
    expect((await execute({ query, variables: { big: true, start: 0 } }, context)).status).toBe(400);
    expect((await execute({ query, variables: { big: false, start: 0 } }, context)).status).toBe(200);
    // Skipped, the page past the window is not asked for at all.
    expect((await execute({ query, variables: { big: false, start: 9950 } }, context)).status).toBe(200);
    const past = await execute(
      { query: search('{ query: "*", start: $s, count: 1 }', '{ total }').replace('{', 'query q($s: Int) {'), variables: { s: 10_000 } },
      context,
    );
    expect([past.status, past.result.errors?.[0]?.message]).toEqual([400, expect.stringMatching(/asks for 10000 \+ 1 = 10001$/)]);
  });

  it('refuses a page past the result window before running it', async () => {
    resolverCalls = 0;
    const answer = await execute({ query: search('{ query: "*", start: 10000, count: 1 }', '{ total }') }, context);
    expect([answer.status, answer.result.errors?.[0]?.message]).toEqual([400, expect.stringMatching(/^Result window is too large/)]);
    expect(resolverCalls).toBe(0);
  });
});
