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
    entities(urns: [String!]!): [Entity]
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

describe('the cost outside pages', () => {
  it('is 1 for each field whose value is an entity (a read), and nothing for leaves and other objects', () => {
    expect(cost('{ appConfig { appVersion auth { tokenAuthEnabled } } }').cost).toBe(0);
    expect(cost('{ __typename entity(urn: "x") { urn } }').cost).toBe(1);
  });

  it('counts every alias, and a field selected twice under one key once, as execution does', () => {
    expect(cost('{ a: entity(urn: "x") { urn } b: entity(urn: "y") { urn } }').cost).toBe(2);
    expect(cost('{ entity(urn: "x") { urn } entity(urn: "x") { urn } }').cost).toBe(1);
  });

  it('expands a fragment in each place it is spread', () => {
    const query = '{ a: entity(urn: "x") { ...f } b: entity(urn: "y") { ...f ...f } } fragment f on Dataset { tags(first: 2) { urn } }';
    expect(cost(query).cost).toBe(2 * (1 + 2));
  });

  it('costs an interface as its costliest object type', () => {
    const query = '{ entity(urn: "x") { urn ... on Dataset { name tags(first: 3) { urn } } ... on Tag { name } } }';
    expect(cost(query).cost).toBe(1 + 3);
  });

  it('leaves introspection out, as before', () => {
    expect(cost('{ __schema { types { name fields { name } } } }').cost).toBe(0);
  });
});

describe('a page asking for n items', () => {
  it('costs n, n from input.count, whatever each item selects', () => {
    expect(cost(search('{ query: "*", count: 10 }')).cost).toBe(10);
    expect(cost(search('{ query: "*", count: 0 }')).cost).toBe(0);
  });

  it('reads n from variables, whole or in part, and from a variable default', () => {
    const whole = 'query q($input: SearchInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn } } } }';
    expect(cost(whole, { input: { query: '*', count: 10 } })).toEqual({ cost: 10 });
    const part = 'query q($n: Int) { searchAcrossEntities(input: { query: "*", count: $n }) { total searchResults { entity { urn } } } }';
    expect(cost(part, { n: 7 }).cost).toBe(7);
    const byDefault = 'query q($n: Int = 3) { searchAcrossEntities(input: { query: "*", count: $n }) { total } }';
    expect(cost(byDefault, {}).cost).toBe(3);
  });

  it('reads `first` and `limit`, the schema default of a size left out, and the length of a list of urns', () => {
    expect(cost('{ entity(urn: "x") { ... on Dataset { tags(first: 4) { urn name } } } }').cost).toBe(1 + 4);
    expect(cost('{ recent { urn } }').cost).toBe(5);
    expect(cost('{ recent(limit: 50) { urn } }').cost).toBe(50);
    expect(cost('query q($urns: [String!]!) { entities(urns: $urns) { urn } }', { urns: ['a', 'b', 'c'] }).cost).toBe(3);
  });

  it('counts a page the caller did not size as DataHub defaults it (20)', () => {
    expect(cost(search('{ query: "*" }')).cost).toBe(20);
  });

  it('prices a page inside a page as one item: what it gives is metered as it runs', () => {
    const query = search('{ query: "*", count: 10 }', '{ searchResults { entity { ... on Dataset { tags(first: 3) { urn } } } } }');
    expect(cost(query).cost).toBe(10 + 1);
  });

  it('caps n as DataHub does: over 10,000 or negative counts 5,000', () => {
    expect(cost(search('{ query: "*", count: 20000 }', '{ total }')).cost).toBe(5000);
    expect(cost(search('{ query: "*", count: -1 }', '{ total }')).cost).toBe(5000);
    expect(cost(search('{ query: "*", count: 10000 }', '{ total }')).cost).toBe(10_000);
  });

  it('refuses a page reaching past the 10,000-hit result window', () => {
    expect(cost(search('{ query: "*", start: 9990, count: 10 }', '{ total }'))).toEqual({ cost: 10 });
    const refused = cost(search('{ query: "*", start: 9991, count: 10 }', '{ total }')).refusal;
    expect(refused?.message).toBe(
      'Result window is too large: start + count must be at most 10000, but searchAcrossEntities asks for 9991 + 10 = 10001',
    );
    expect(refused?.extensions).toEqual({ code: 400, type: 'BAD_REQUEST' });
  });

  it('follows @skip and @include', () => {
    const query =
      'query q($big: Boolean!) { entity(urn: "x") { urn } s: searchAcrossEntities(input: { query: "*", count: 100 }) @include(if: $big) { total } }';
    expect(cost(query, { big: false }).cost).toBe(1);
    expect(cost(query, { big: true }).cost).toBe(1 + 100);
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
          'Query cost limit of 100 exceeded: this query costs 1000 (GRAPHQL_QUERY_COMPLEXITY_LIMIT; a page asking for n items costs n)',
        extensions: { code: 400, type: 'BAD_REQUEST' },
      },
    ]);
    expect(resolverCalls).toBe(0);
  });

  it('runs an operation within it, and judges the same document again by its new variables', async () => {
    resolverCalls = 0;
    const query = 'query q($n: Int) { searchAcrossEntities(input: { query: "*", count: $n }) { total } }';
    expect((await execute({ query, variables: { n: 100 } }, context)).status).toBe(200);
    expect(resolverCalls).toBe(1);
    expect((await execute({ query, variables: { n: 101 } }, context)).status).toBe(400);
    expect((await execute({ query, variables: { n: 100 } }, context)).status).toBe(200);
  });

  it('judges the same document again by its variable switches, and by a start past the window', async () => {
    const query =
      'query q($big: Boolean!, $start: Int) { appConfig { appVersion } s: searchAcrossEntities(input: { query: "*", start: $start, count: 101 }) @include(if: $big) { total } }';
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

  it('meters pages as they run: a page inside a page costs what it gives each time, and once over, no page reads', async () => {
    let tagReads = 0;
    const running = createSchema({
      typeDefs,
      resolvers: {
        Query: {
          searchAcrossEntities: (_: unknown, { input }: { input: { count: number } }) => ({
            total: 50,
            searchResults: Array.from({ length: input.count }, (_, i) => ({ entity: { urn: `d${i}` } })),
          }),
        },
        Entity: { __resolveType: () => 'Dataset' },
        Dataset: {
          tags: () => {
            tagReads++;
            return [{ urn: 'a' }, { urn: 'b' }, { urn: 'c' }];
          },
        },
      },
    });
    const metered = createGraphQLExecutor({ schema: running, logger: createLogger('silent'), plugins: [costLimitPlugin(100)] });
    const query = search('{ query: "*", count: 50 }', '{ searchResults { entity { ... on Dataset { tags(first: 10) { urn } } } } }');
    expect(operationCost(running, parse(query), undefined, {}).cost).toBe(51); // priced within the budget
    const answer = await metered({ query }, context);
    expect([answer.status, answer.result.data, answer.result.errors?.map((e) => e.message)]).toEqual([
      400,
      undefined,
      [
        'Query cost limit of 100 exceeded: the pages of this query gave 101 items so far (GRAPHQL_QUERY_COMPLEXITY_LIMIT; every item of every page counts, a page inside a page as often as it runs)',
      ],
    ]);
    // 50 results, then 3 tags each: the 17th page of tags passed the budget, and the 33 after it read nothing.
    expect(tagReads).toBe(17);
    const small = await metered({ query: query.replace('count: 50', 'count: 20') }, context);
    expect([small.status, small.result.errors]).toEqual([200, undefined]);
  });
});
