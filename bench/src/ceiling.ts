import { buildApiSchema } from '@mds/schema';
import { repositoryTypeDefs } from '@mds/schema/repository-sdl';
import {
  execute,
  parse,
  validate,
  type DocumentNode,
  type GraphQLError,
  type GraphQLFieldResolver,
  type GraphQLTypeResolver,
} from 'graphql';
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { datasetAnswer } from './dataset-fixture.ts';
import { listenAnnounced, onBodyText, sendJson } from './json-http.ts';

/**
 * The ceiling: what the same SDL costs over node:http with nothing else — graphql-js `execute`, a parse (and
 * validation) cache keyed by the query text, and no-op resolvers answering plausible shapes. No auth beyond
 * "a header is present", no persistence. mds cannot be faster than this on the same machine; the ratio mds/ceiling
 * says how much of the budget the real server spends on everything else.
 */
const TAG_PROPERTIES = { name: 'Bench tag', description: 'A tag answered by the ceiling', colorHex: null };
const tag = (urn: string) => ({ urn, type: 'TAG', properties: TAG_PROPERTIES });
const SEARCH_PAGE = Array.from({ length: 10 }, (_, i) => ({ entity: tag(`urn:li:tag:bench-${i}`), matchedFields: [] }));

/** A lineage page as mds answers the bench's trees: 10 entities, each with one path from the root, and the degree facet. */
const LINEAGE_PAGE = {
  start: 0,
  count: 10,
  total: 39,
  searchResults: Array.from({ length: 10 }, (_, i) => ({
    entity: tag(`urn:li:tag:lineage-${i}`),
    matchedFields: [],
    insights: [],
    paths: [{ path: [tag('urn:li:tag:lineage-root'), tag(`urn:li:tag:lineage-${i}`)] }],
    degree: i < 3 ? 1 : 2,
    explored: true,
    ignoredAsHop: false,
    truncatedChildren: false,
  })),
  facets: [
    {
      field: 'degree',
      displayName: 'Degree of Dependencies',
      aggregations: [
        { value: '1', count: 3 },
        { value: '2', count: 9 },
        { value: '3+', count: 27 },
      ],
    },
  ],
  lineageSearchPath: null,
};

const resolvers = {
  Entity: { __resolveType: () => 'Tag' },
  OwnerType: { __resolveType: () => 'CorpUser' },
  Query: {
    tag: (_: unknown, args: { urn: string }) => tag(args.urn),
    dataset: (_: unknown, args: { urn: string }) => datasetAnswer(args.urn),
    searchAcrossEntities: () => ({ start: 0, count: SEARCH_PAGE.length, total: 1000, searchResults: SEARCH_PAGE }),
    searchAcrossLineage: () => LINEAGE_PAGE,
  },
  Mutation: { createTag: () => 'urn:li:tag:x' },
};

/**
 * Replays: what graphql-js alone costs for a document whose resolvers the ceiling does not have (the UI's). The harness
 * registers mds's answer to a query and its variables (`POST /replay`, the answer asked with `__typename` in every
 * selection set); a request of that query and variables is then executed over a schema without resolvers, every field
 * read from the recorded answer by its response key (alias or name) and every abstract type from its `__typename`.
 */
const replayField: GraphQLFieldResolver<Record<string, unknown> | null, unknown> = (source, _args, _context, info) =>
  source?.[info.path.key as string];
const replayType: GraphQLTypeResolver<Record<string, unknown>, unknown> = (value) => value.__typename as string;
const replayKey = (query: string, variables: unknown) => JSON.stringify([query, variables ?? null]);

export function createCeilingServer(): Server {
  const schema = buildApiSchema([{ typeDefs: repositoryTypeDefs(), resolvers: resolvers as never }]);
  const replaySchema = buildApiSchema([{ typeDefs: repositoryTypeDefs(), resolvers: {} }]);
  const replays = new Map<string, unknown>();
  const documents = new Map<string, { document: DocumentNode; errors: readonly GraphQLError[] }>();
  const prepare = (query: string) => {
    let entry = documents.get(query);
    if (!entry) {
      const document = parse(query);
      entry = { document, errors: validate(schema, document) };
      documents.set(query, entry);
    }
    return entry;
  };

  return createServer((req, res) => {
    const send = (status: number, body: unknown) => sendJson(res, status, body);
    if (req.method !== 'POST' || (req.url !== '/api/graphql' && req.url !== '/replay')) return send(404, { message: 'not found' });
    if (!req.headers.authorization) return send(401, { message: 'Unauthorized to perform this action.' });
    onBodyText(req, (text) => {
      try {
        const { query, variables, operationName, data } = JSON.parse(text);
        if (req.url === '/replay') {
          replays.set(replayKey(query, variables), data);
          return send(200, { replays: replays.size });
        }
        const { document, errors } = prepare(query);
        if (errors.length > 0) return send(400, { errors });
        const key = replayKey(query, variables);
        const result = replays.has(key)
          ? execute({
              schema: replaySchema,
              document,
              rootValue: replays.get(key),
              variableValues: variables,
              operationName,
              contextValue: {},
              fieldResolver: replayField,
              typeResolver: replayType,
            })
          : execute({ schema, document, variableValues: variables, operationName, contextValue: {} });
        if (result instanceof Promise)
          result.then(
            (r) => send(200, r),
            (e: Error) => send(500, { message: e.message }),
          );
        else send(200, result);
      } catch (error) {
        send(400, { message: (error as Error).message });
      }
    });
  });
}

/** Run directly (by ceiling-process.ts): listen on a random loopback port and announce it on stderr. */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  listenAnnounced(createCeilingServer(), 'ceiling');
}
