import { whenReady } from '@mds/core';
import { badRequest, UNKNOWN_ERROR_MESSAGE, type ApiContext } from '@mds/schema';
import { GraphQLError, Kind, execute, getOperationAST, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { createDocumentCache } from './document-cache';
import { DATABASE_UNAVAILABLE_MESSAGE, isUnreachable } from './http/unavailable';
import type { Logger } from './logger';

interface GraphQLParams {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

export interface GraphQLResponse {
  status: number;
  result: ExecutionResult;
  /** The operation's name ('anonymous' when it has none, '' when none could be chosen), for logs and metrics. */
  operation: string;
}

/** A query text as parsed and validated by the pipeline. */
interface PreparedDocument {
  document: DocumentNode;
  errors: readonly GraphQLError[];
}

/**
 * Runs GraphQL through Yoga's envelop pipeline (its plugins and error masking) called straight from node:http.
 * Yoga's fetch adapter is bypassed on purpose: it costs most of the throughput (see README).
 *
 * Each distinct query text goes through the pipeline's parse and validate phases (armor's limits included) once;
 * the outcome is kept by text, as the benchmark's ceiling (bench/src/ceiling.ts) keeps its own, so a repeated query
 * skips both phases' hooks and their per-request garbage. Neither the schema nor the plugins change while the
 * executor lives, so the outcome could not differ. Documents that fail to parse are not kept: parsing them again
 * costs their sender, not the others.
 */
export function createGraphQLExecutor(options: { schema: GraphQLSchema; logger: Logger; plugins?: Plugin[] }) {
  const yoga = createYoga<Record<string, unknown>, ApiContext>({
    schema: options.schema,
    graphiql: false,
    landingPage: false,
    batching: false,
    logging: false,
    plugins: [...(options.plugins ?? []), executeWithGraphQLJs],
    maskedErrors: { maskError },
    parserAndValidationCache: false, // the executor keeps prepared documents itself
  });
  const prepared = createDocumentCache<PreparedDocument>();

  // Synchronous wherever the pipeline is: a cached tag read waits on one promise, execution's (executeWithGraphQLJs).
  return function executeGraphQL(body: unknown, context: ApiContext): GraphQLResponse | Promise<GraphQLResponse> {
    const params = readParams(body);
    const enveloped = yoga.getEnveloped(context);
    let entry = prepared.get(params.query);
    try {
      if (!entry) {
        const parsed = enveloped.parse(params.query);
        entry = { document: parsed, errors: enveloped.validate(enveloped.schema, parsed) };
        prepared.set(params.query, entry);
      }
    } catch (error) {
      // Parse errors, and validation rules that throw instead of reporting, are the document's fault.
      if (error instanceof GraphQLError) return requestError([error]);
      throw error;
    }
    const { document, errors } = entry;
    if (errors.length > 0) return requestError(errors);
    const operationAst = getOperationAST(document, params.operationName);
    if (!operationAst) return requestError([unknownOperation(document, params.operationName)]);
    const operation = operationAst.name?.value ?? 'anonymous';
    if (operationAst.operation === 'subscription') {
      return requestError([new GraphQLError('Subscriptions are not supported over POST /api/graphql')], operation);
    }
    const run = (contextValue: unknown) =>
      enveloped.execute({
        schema: enveloped.schema,
        document,
        contextValue,
        variableValues: params.variables,
        operationName: params.operationName,
      }) as ExecutionResult | Promise<ExecutionResult>;
    const answer = (result: ExecutionResult): GraphQLResponse => {
      let unreachable = false;
      for (const error of result.errors ?? []) {
        if (error.extensions?.type === 'SERVER_ERROR') {
          options.logger.error({ requestId: context.requestId, path: error.path, err: error.originalError }, 'resolver failed');
        } else if (error.extensions?.type === UNAVAILABLE) {
          unreachable = true;
          options.logger.warn(
            { requestId: context.requestId, path: error.path, reason: error.originalError?.message },
            'database unavailable',
          );
        }
      }
      // A field that met an unreachable database makes the whole answer a 503, which clients and proxies retry.
      if (unreachable) return { status: 503, result, operation };
      // No `data` means the request could not run (e.g. bad variables): that is the caller's error.
      return { status: 'data' in result ? 200 : 400, result, operation };
    };
    return whenReady(whenReady(enveloped.contextFactory(), run), answer);
  };
}

/**
 * graphql-js's own `execute` (the reference implementation) in place of Yoga's default executor, whose support for
 * @defer/@stream and cancellation, unused here, costs about a tenth of a cached tag read. An answer graphql-js completed
 * synchronously (every resolver answered from a cache) goes on as a resolved promise: envelop wraps a plain value in a
 * "fake promise" object at each of its hooks, which cost 7.7 % of a cached tag read's CPU against one microtask.
 */
const executeWithGraphQLJs: Plugin = {
  onExecute: ({ setExecuteFn }) =>
    setExecuteFn((args) => {
      const result = execute(args);
      return result instanceof Promise ? result : Promise.resolve(result);
    }),
};

/** graphql-js's words for a document whose operation cannot be chosen (Yoga's executor would throw a plain Error: a 500). */
function unknownOperation(document: DocumentNode, name: string | undefined): GraphQLError {
  if (name) return new GraphQLError(`Unknown operation named "${name}".`);
  const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION).length;
  return new GraphQLError(operations ? 'Must provide operation name if query contains multiple operations.' : 'Must provide an operation.');
}

/** A document that never ran: 400, graphql-js's messages, DataHub's error extensions. */
function requestError(errors: readonly GraphQLError[], operation = ''): GraphQLResponse {
  return {
    status: 400,
    operation,
    result: {
      errors: errors.map(
        (e) =>
          new GraphQLError(e.message, {
            nodes: e.nodes,
            source: e.source,
            positions: e.positions,
            extensions: { code: 400, type: 'BAD_REQUEST' },
          }),
      ),
    },
  };
}

function readParams(body: unknown): GraphQLParams {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('Request body must be a JSON object with a string "query" (batching is not supported)');
  }
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string') throw badRequest('Request body must have a string "query"');
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
    throw badRequest('"variables" must be a JSON object');
  }
  if (operationName != null && typeof operationName !== 'string') throw badRequest('"operationName" must be a string');
  return { query, variables: (variables ?? undefined) as GraphQLParams['variables'], operationName: operationName ?? undefined };
}

const UNAVAILABLE = 'SERVICE_UNAVAILABLE';

/**
 * Errors meant for callers (ApiError and graphql-js's own) pass; the database out of reach becomes a 503 error;
 * anything else becomes DataHub's 500 with the original kept (not serialised) so the handler can log it with the request id.
 */
function maskError(error: unknown): Error {
  if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) return error;
  const original = error instanceof GraphQLError ? error.originalError : error;
  const located = error instanceof GraphQLError ? error : undefined;
  const unreachable = isUnreachable(original);
  return new GraphQLError(unreachable ? DATABASE_UNAVAILABLE_MESSAGE : UNKNOWN_ERROR_MESSAGE, {
    nodes: located?.nodes,
    path: located?.path,
    originalError: original instanceof Error ? original : new Error(String(original)),
    extensions: unreachable ? { code: 503, type: UNAVAILABLE } : { code: 500, type: 'SERVER_ERROR' },
  });
}
