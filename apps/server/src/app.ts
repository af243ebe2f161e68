import type { AuthService } from '@mds/auth';
import {
  ApiError,
  UNAUTHENTICATED_MESSAGE,
  UNKNOWN_ERROR_MESSAGE,
  badRequest,
  forbidden,
  type Actor,
  type ApiContext,
  type JsonRoute,
  type RestliAction,
  type RestliRead,
} from '@mds/schema';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { datahubConfig } from './datahub-config';
import { createConsole } from './console';
import { createGraphiQLPage } from './graphiql';
import { createSwaggerUi, SWAGGER_UI_PATH } from './swagger-ui';
import type { GraphQLResponse } from './graphql';
import { readJsonBody, requireJsonContentType, type BodyPace, type BodyRules } from './http/body';
import { createCorsGuard, ownOriginRule } from './http/cors';
import { createProxyTrust } from './http/forwarded';
import type { HostPage } from './http/sign-in';
import { createSlots } from './http/slots';
import { sendError, sendJson } from './http/respond';
import { createSessionRoutes } from './http/session-routes';
import type { WebUi } from './http/web-ui';
import { databaseUnavailable, isUnreachable, RETRY_AFTER_SECONDS } from './http/unavailable';
import { requestLogger, type Logger } from './logger';
import type { Metrics } from './metrics';
import type { Readiness } from './readiness';
import type { RestliDispatcher } from './restli';
import { RESTLI_DOCS_HEADERS, RESTLI_DOCS_PATH, restliDocsPage } from './restli-docs';

export interface AppOptions {
  logger: Logger;
  metrics: Metrics;
  readiness: Readiness;
  maxBodyBytes: number;
  maxBulkBodyBytes: number;
  maxConcurrentIngests: number;
  /** How slowly a request body may arrive (BODY_READ_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND). */
  bodyPace: BodyPace;
  corsOrigins: readonly string[];
  /** MDS_TRUSTED_PROXIES: the peers whose X-Forwarded-Host/-Proto are believed. */
  trustedProxies: readonly string[];
  /** DATAHUB_BASE_URL's origin. */
  publicOrigin?: string | undefined;
  /** MDS_WEB_UI_DIR's web UI: every GET the routes do not take, outside the API's paths. */
  webUi?: WebUi | undefined;
  /** Serve /metrics without credentials (METRICS_PUBLIC=true). */
  metricsPublic: boolean;
  authenticate: AuthService['authenticate'];
  /** Revokes a browser session's token on /logOut; without it, signing out only clears the cookies. */
  revokeSession?: ((token: string) => Promise<unknown>) | undefined;
  executeGraphQL(body: unknown, context: ApiContext): GraphQLResponse | Promise<GraphQLResponse>;
  restli: RestliDispatcher;
  routes?: JsonRoute[];
  /** Rest.li GETs: `/<resource>/<key>` and `/<resource>?...` under every Rest.li prefix. */
  reads?: RestliRead[];
  /** The host's own routes answered from the raw request, unauthenticated (sign-in: http/sign-in.ts). */
  pages?: readonly HostPage[];
}

const GRAPHQL_PATH = '/api/graphql';
/** Where DataHub's web UI sends its GraphQL (to its frontend, which forwards it to /api/graphql), with its session cookie. */
const UI_GRAPHQL_PATH = '/api/v2/graphql';
const GRAPHIQL_PATH = '/api/graphiql';
/** DataHub serves Rest.li at the root of GMS, and through the frontend's proxy under /api/gms; some docs say /gms. */
const RESTLI_PREFIXES = ['/', '/gms/', '/api/gms/'];
/** JSON routes (OpenAPI) at the root of GMS and through the frontend's proxy (entities-api §1). */
const JSON_ROUTE_PREFIXES = ['', '/api/gms'];
const RESTLI_EXCEPTION_CLASS = 'com.linkedin.restli.server.RestLiServiceException';
/** Resources whose failures carry Rest.li's error body and header (entities-api §2); `operations` keeps its own. */
const RESTLI_ERROR_RESOURCES = new Set(['aspects', 'entities', 'entitiesV2', 'relationships', 'runs']);
const RESTLI_PROTOCOL_HEADER = 'x-restli-protocol-version';

/** What one request turned out to be, for its log line and its metrics. */
interface RequestInfo {
  requestId: string;
  /** The GraphQL operation name or the Rest.li action ('' elsewhere). */
  operation: string;
}

/** `search` is the query string without its `?`: most routes never look at it, so it is parsed only where needed. */
type Route = (req: IncomingMessage, res: ServerResponse, search: string, info: RequestInfo) => Promise<void> | void;

/** The whole HTTP surface in one place: socket → route → authentication → domain, and every error's shape. */
export function createApp(options: AppOptions): RequestListener {
  const { logger, metrics } = options;
  const graphiql = createGraphiQLPage({ endpoint: GRAPHQL_PATH, title: 'mds GraphiQL' });
  const proxies = createProxyTrust(options.trustedProxies);
  const corsAdmits = createCorsGuard({ allowedOrigins: options.corsOrigins, publicOrigin: options.publicOrigin, proxies });
  const sessions = createSessionRoutes({
    authenticate: options.authenticate,
    revokeSession: options.revokeSession,
    isOwnOrigin: ownOriginRule({ proxies, publicOrigin: options.publicOrigin }),
    proxies,
  });
  const logRequest = requestLogger(logger);

  const authenticated = async (req: IncomingMessage, info: RequestInfo): Promise<ApiContext> => {
    const actor = await options.authenticate(req.headers.authorization);
    if (!actor) throw new ApiError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
    return { actor, requestId: info.requestId };
  };

  // A 16 MiB ingestion body is held several times over while it is parsed, validated and written; a few at a time
  // keep the peak bounded. Waiting requests stay unread in the socket buffers, not in the heap.
  const ingestSlots = createSlots(options.maxConcurrentIngests);
  /** Whether a bulk request's body is read in an ingestion slot: always, or (`when-large`) past the ordinary limit. */
  const needsSlot = (bulk: boolean | 'when-large' | undefined, req: IncomingMessage) => {
    if (bulk !== 'when-large') return bulk === true;
    const announced = Number(req.headers['content-length']);
    return !(Number.isFinite(announced) && announced <= options.maxBodyBytes);
  };
  /**
   * Reads a write's body and hands it to `use`. An actor the route admits (from the headers: see RestliAction's
   * `admit`) gets its bulk limit and, when it needs one, an ingestion slot; one it does not admit gets neither: at most
   * MAX_BODY_BYTES are read, outside any slot, and the route refuses the body as it would anyway. A slot is never held
   * by a request that cannot write, nor a large body buffered for one.
   */
  const withBody = async (
    req: IncomingMessage,
    actor: Actor,
    route: Pick<RestliAction, 'bulk' | 'admit'>,
    use: (body: unknown) => Promise<void>,
  ): Promise<void> => {
    const admitted = route.admit ? await route.admit(actor) : true;
    const rules: BodyRules = admitted
      ? { limit: route.bulk ? options.maxBulkBodyBytes : options.maxBodyBytes, pace: options.bodyPace }
      : { limit: options.maxBodyBytes, pace: options.bodyPace, tooLarge: () => unreadWrite(actor, options.maxBodyBytes) };
    const read = async () => use(await readJsonBody(req, rules));
    return admitted && needsSlot(route.bulk, req) ? ingestSlots.run(read) : read();
  };
  const routes = new Map<string, RouteEntry>();
  /** Adds `route` for `method` on `path`, beside the routes other methods have there. */
  const addRoute = (path: string, method: string, route: Route, flags: Omit<RouteEntry, 'methods' | 'route'> = {}) => {
    const existing = routes.get(path);
    if (!existing) return void routes.set(path, { methods: [method], route, ...flags });
    const byMethod = { [existing.methods[0]!]: existing.route, [method]: route };
    routes.set(path, {
      ...existing,
      ...flags,
      methods: [...existing.methods, method],
      route: (req, res, search, info) => (byMethod[req.method!] ?? existing.route)(req, res, search, info),
    });
  };
  routes.set('/health', {
    methods: ['GET', 'HEAD'],
    route: async (_req, res) => {
      const reason = await options.readiness.check();
      sendJson(res, reason ? 503 : 200, reason ? { status: 'unavailable', reason } : { status: 'ok' });
    },
  });
  routes.set('/metrics', {
    methods: ['GET'],
    route: async (req, res, _search, info) => {
      if (!options.metricsPublic) await authenticated(req, info);
      const text = await metrics.render();
      res.writeHead(200, { 'content-type': metrics.contentType, 'content-length': Buffer.byteLength(text) }).end(text);
    },
  });
  routes.set(GRAPHIQL_PATH, { methods: ['GET', 'HEAD'], route: (req, res) => graphiql(req, res) });
  for (const page of options.pages ?? [])
    addRoute(page.path, page.method, (req, res) =>
      page.handle(req, res, { body: { limit: options.maxBodyBytes, pace: options.bodyPace }, secure: sessions.secure(req) }),
    );
  // Swagger UI over the generated OpenAPI document; like the explorer, the page itself needs no credentials.
  const swaggerUi = createSwaggerUi({ docs: '/openapi/v3/api-docs' });
  for (const name of swaggerUi.names)
    routes.set(`${SWAGGER_UI_PATH}${name}`, { methods: ['GET', 'HEAD'], route: (req, res) => swaggerUi.serve(name, req, res) });
  // The operations console (@mds/console): a static page, no credentials; its data comes from the API with the user's token.
  const operationsConsole = createConsole();
  for (const [path, name] of Object.entries(operationsConsole.paths))
    routes.set(path, { methods: ['GET', 'HEAD'], route: (req, res) => operationsConsole.serve(name, req, res) });
  // Asked without credentials by DataHub's clients before they authenticate anything (entities-api §7.7).
  const config = datahubConfig();
  for (const prefix of RESTLI_PREFIXES)
    routes.set(`${prefix}config`, { methods: ['GET'], route: (_req, res) => sendJson(res, 200, config) });
  // Rest.li's documentation page, generated from the actions and reads registered here; it needs no credentials.
  const restliDocs = restliDocsPage(options.restli.actions, options.reads ?? []);
  for (const prefix of RESTLI_PREFIXES) {
    routes.set(`${prefix}${RESTLI_DOCS_PATH.slice(1)}`, {
      methods: ['GET', 'HEAD'],
      route: (req, res) =>
        void res
          .writeHead(200, { ...RESTLI_DOCS_HEADERS, 'content-length': Buffer.byteLength(restliDocs) })
          .end(req.method === 'HEAD' ? undefined : restliDocs),
    });
  }
  /** A GraphQL endpoint whose caller `authenticate` finds. */
  const graphqlRoute =
    (authenticate: (req: IncomingMessage, info: RequestInfo) => Promise<ApiContext>): Route =>
    async (req, res, _search, info) => {
      requireJsonContentType(req);
      const context = await authenticate(req, info);
      const body = await readJsonBody(req, { limit: options.maxBodyBytes, pace: options.bodyPace });
      const { status, result, operation } = await options.executeGraphQL(body, context);
      info.operation = operation;
      sendJson(res, status, result, status === 503 ? { 'retry-after': RETRY_AFTER_SECONDS } : {});
    };
  routes.set(GRAPHQL_PATH, { methods: ['POST'], graphql: true, route: graphqlRoute(authenticated) });
  // The web UI's own paths, as DataHub's frontend serves them: GraphQL signed in by the session cookie (CSRF-checked),
  // where to go on opening the UI, and signing out.
  const browserContext = async (req: IncomingMessage, info: RequestInfo) => ({
    actor: await sessions.browserActor(req),
    requestId: info.requestId,
  });
  routes.set(UI_GRAPHQL_PATH, { methods: ['POST'], graphql: true, route: graphqlRoute(browserContext) });
  routes.set('/authenticate', { methods: ['GET'], route: (req, res, search) => sessions.authenticateRoute(req, res, search) });
  routes.set('/logOut', { methods: ['GET'], route: (req, res) => sessions.logOutRoute(req, res) });
  for (const resource of options.restli.resources) {
    const route: Route = async (req, res, search, info) => {
      if (req.headers['content-type'] !== undefined) requireJsonContentType(req);
      const context = await authenticated(req, info);
      const action = options.restli.find(resource, new URLSearchParams(search).get('action'));
      info.operation = action.name;
      return withBody(req, context.actor, action, async (body) => {
        const { value } = await options.restli.run(action, body, context);
        // An action without a result (`/entities?action=ingest`) answers an empty 200, as Rest.li does.
        if (value === undefined) return void res.writeHead(200, { 'content-length': 0 }).end();
        sendJson(res, 200, { value });
      });
    };
    for (const prefix of RESTLI_PREFIXES) addRoute(`${prefix}${resource}`, 'POST', route, { restli: RESTLI_ERROR_RESOURCES.has(resource) });
  }
  const readsByResource = new Map<string, RestliRead>();
  for (const read of options.reads ?? []) {
    readsByResource.set(read.resource, read);
    const route: Route = async (req, res, search, info) => {
      const context = await authenticated(req, info);
      info.operation = `get ${read.resource}`;
      sendJson(res, 200, await read.handler(undefined, search, context));
    };
    for (const prefix of RESTLI_PREFIXES) addRoute(`${prefix}${read.resource}`, 'GET', route, { restli: true });
  }
  /** `/<resource>/<key>` of a Rest.li read, under any prefix: the key is one path segment, still encoded. */
  const keyedRead = (path: string): RouteEntry | undefined => {
    for (const prefix of RESTLI_PREFIXES) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      const read = slash > 0 ? readsByResource.get(rest.slice(0, slash)) : undefined;
      if (!read) continue;
      const key = rest.slice(slash + 1);
      return {
        methods: ['GET'],
        restli: true,
        keyed: `${prefix}${read.resource}/{key}`,
        route: async (req, res, search, info) => {
          const context = await authenticated(req, info);
          info.operation = `get ${read.resource}`;
          sendJson(res, 200, await read.handler(key, search, context));
        },
      };
    }
    return undefined;
  };
  /** A JSON route's answer: its body read (POST and PATCH), its handler run, its answer sent. */
  const jsonRoute =
    (route: JsonRoute, params: Record<string, string>): Route =>
    async (req, res, search, info) => {
      const context = await (route.session ? browserContext : authenticated)(req, info);
      const hasBody = req.method === 'POST' || req.method === 'PATCH';
      // DataHub's PATCH takes `application/json-patch+json` as well; CORS-simple types never reach a handler.
      if (
        hasBody &&
        req.headers['content-type'] !== undefined &&
        !/^application\/json-patch\+json\s*(;|$)/i.test(req.headers['content-type'])
      ) {
        requireJsonContentType(req);
      }
      const answer = async (body: unknown) => {
        const request = { params, query: new URLSearchParams(search), body };
        const result = await route.handler(context, request);
        if (!route.whole) return sendJson(res, 200, result);
        // JsonAnswer of @mds/schema's module.ts
        const {
          status,
          headers = {},
          body: answered,
          text,
        } = result as { status: number; headers?: Record<string, string>; body?: unknown; text?: string };
        if (text !== undefined) return void res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) }).end(text);
        if (answered === undefined) return void res.writeHead(status, { ...headers, 'content-length': 0 }).end();
        sendJson(res, status, answered, headers);
      };
      if (hasBody) return withBody(req, context.actor, route, answer);
      return route.bulk ? ingestSlots.run(() => answer(undefined)) : answer(undefined);
    };
  /** Parameterized JSON routes by pattern (`/openapi/v3/entity/{entityName}`), each with its routes by method. */
  const patterns: { pattern: string; segments: string[]; byMethod: Map<string, JsonRoute> }[] = [];
  for (const prefix of JSON_ROUTE_PREFIXES) {
    for (const extra of options.routes ?? []) {
      const path = prefix + extra.path;
      const flags = { json: extra.errorBody ?? 'message' };
      if (!path.includes('{')) {
        addRoute(path, extra.method, jsonRoute(extra, {}), flags);
        continue;
      }
      let entry = patterns.find((p) => p.pattern === path);
      if (!entry) patterns.push((entry = { pattern: path, segments: path.split('/'), byMethod: new Map() }));
      entry.byMethod.set(extra.method, extra);
    }
  }
  /**
   * The parameterized route for `path`: of the patterns matching it, the most specific (fixed segments before
   * parameters, left to right) that has the request's method, else the most specific at all (then a 405).
   */
  const patternRoute = (path: string, method: string): RouteEntry | undefined => {
    const segments = path.split('/');
    const matching = patterns
      .filter((p) => p.segments.length === segments.length && p.segments.every((s, i) => s.startsWith('{') || s === segments[i]))
      .sort((a, b) => specificity(b.segments).localeCompare(specificity(a.segments)));
    const chosen = matching.find((p) => p.byMethod.has(method)) ?? matching[0];
    if (!chosen) return undefined;
    const route = chosen.byMethod.get(method);
    return {
      methods: [...new Set(matching.flatMap((p) => [...p.byMethod.keys()]))],
      keyed: chosen.pattern,
      json: (route ?? chosen.byMethod.values().next().value!).errorBody ?? 'message',
      route: (req, res, search, info) => {
        const params: Record<string, string> = {};
        chosen.segments.forEach((s, i) => {
          if (s.startsWith('{')) params[s.slice(1, -1)] = decodeSegment(segments[i]!);
        });
        return jsonRoute(route!, params)(req, res, search, info);
      },
    };
  };

  const webUi = options.webUi;
  const webUiEntry: RouteEntry | undefined = webUi && {
    methods: ['GET', 'HEAD'],
    keyed: 'web UI',
    route: (req, res, _search) => webUi.serve(req, res, (req.url ?? '/').split('?', 1)[0]!),
  };
  /** The web UI's answer for a path no route takes (its files, else its page), unless the path is the API's. */
  const webUiRoute = (path: string) => (webUiEntry && webUi!.owns(path) ? webUiEntry : undefined);

  return (req, res) => {
    const started = performance.now();
    const info: RequestInfo = { requestId: requestIdOf(req), operation: '' };
    res.setHeader('x-request-id', info.requestId);
    const [path = '/', search = ''] = (req.url ?? '/').split('?', 2);
    const entry = routes.get(path) ?? keyedRead(path) ?? patternRoute(path, req.method ?? '') ?? webUiRoute(path);
    // Counted and logged once the answer has left, without a 'finish' listener per request (~3 % of a read).
    const sent = () => {
      const seconds = (performance.now() - started) / 1000;
      metrics.observe(entry ? (entry.keyed ?? path) : 'unmatched', info.operation, res.statusCode, seconds);
      logRequest?.({
        requestId: info.requestId,
        method: req.method,
        path,
        operation: info.operation,
        status: res.statusCode,
        ms: Math.round(seconds * 100_000) / 100,
      });
    };
    // The router's own answers (a CORS refusal, a preflight, a 404, a 405) leave at once, while node still parses the
    // request, so they are counted at once: counted later, the client's next request could be read, and the count
    // asked for, first. A route answers before it settles, and its answer leaves with the others of this turn (see
    // sendJson): it is counted by an immediate queued behind that sending.
    if (!corsAdmits(req, res)) return sent();
    if (!entry) {
      sendError(res, 404, `No route for ${path}`);
      return sent();
    }
    if (!entry.methods.includes(req.method ?? '')) {
      sendError(res, 405, `Method ${req.method} is not allowed on ${path}`, { allow: entry.methods.join(', ') });
      return sent();
    }
    // DataHub's emitter sends the Rest.li protocol version on every call (`/config` first): every answer keeps it.
    const protocol = req.headers[RESTLI_PROTOCOL_HEADER];
    if (typeof protocol === 'string') res.setHeader(RESTLI_PROTOCOL_HEADER, protocol);
    const run = async () => entry.route(req, res, search, info); // a synchronous throw becomes a rejection too
    const shape = entry.graphql ? 'graphql' : entry.restli ? 'restli' : entry.json === 'error' ? 'openapi' : 'json';
    void run()
      .catch((error: unknown) => sendFailure(res, error, shape, info.requestId, logger))
      .then(() => setImmediate(sent));
  };
}

interface RouteEntry {
  methods: string[];
  route: Route;
  graphql?: boolean;
  /** Failures carry Rest.li's error body (entities-api §2). */
  restli?: boolean;
  /** The path pattern of a keyed read or a parameterized route, for metrics (`/aspects/{key}`), so URNs do not become label values. */
  keyed?: string;
  /** A JSON route's error body: `{message, status}`, or DataHub OpenAPI's `{error}`. */
  json?: 'message' | 'error';
}

/** One digit per segment, 1 fixed and 0 a parameter: the larger, the more specific. */
const specificity = (segments: readonly string[]) => segments.map((s) => (s.startsWith('{') ? '0' : '1')).join('');

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`Malformed percent-encoding in path segment: ${segment}`);
  }
}

function sendFailure(
  res: ServerResponse,
  thrown: unknown,
  shape: 'graphql' | 'restli' | 'json' | 'openapi',
  requestId: string,
  logger: Logger,
): void {
  if (res.headersSent) return void res.destroy();
  // The database out of reach is no bug of this request: a 503 it may retry, logged without a stack.
  const unreachable = isUnreachable(thrown);
  if (unreachable) logger.warn({ requestId, reason: (thrown as Error).message }, 'database unavailable');
  const error = unreachable ? databaseUnavailable() : thrown;
  const known = error instanceof ApiError;
  if (!known) logger.error({ requestId, err: error }, 'request failed');
  const status = known ? error.status : 500;
  const message = known ? error.message : UNKNOWN_ERROR_MESSAGE;
  const headers: Record<string, string> = {};
  if (status === 401) headers['www-authenticate'] = 'Bearer realm="mds"';
  if (unreachable) headers['retry-after'] = RETRY_AFTER_SECONDS;
  // A 413's body was read to its end and thrown away, or cut past its bounds (http/body.ts): either way, close. A 408's
  // is still arriving: closing is what cuts it.
  if (status === 413 || status === 408) headers.connection = 'close';
  if (shape === 'restli') {
    // Rest.li's error body; a 404 of a read has no message, as DataHub's has none.
    const body = { exceptionClass: RESTLI_EXCEPTION_CLASS, stackTrace: '', ...(message ? { message } : {}), status };
    return sendJson(res, status, body, { ...headers, 'x-restli-error-response': 'true' });
  }
  if (shape === 'json') return sendError(res, status, message, headers);
  if (shape === 'openapi') return sendJson(res, status, { error: message }, headers);
  const type = known ? error.kind : 'SERVER_ERROR';
  sendJson(res, status, { errors: [{ message, extensions: { code: status, type } }] }, headers);
}

/** The refusal of a write body larger than MAX_BODY_BYTES from an actor the route does not admit: it is not read. */
const unreadWrite = (actor: Actor, limit: number) =>
  forbidden(
    `User ${actor.urn} is unauthorized to write here: a request body over ${limit} bytes (MAX_BODY_BYTES) is read only from a user who may write`,
  );

function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}
