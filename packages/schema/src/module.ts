import type { RestliAction, RestliRead } from './actions';
import type { ApiContext } from './context';
import type { Resolvers } from './generated/resolvers-types';

/** What a JSON route is handed besides the caller: its path parameters, query and body. */
export interface JsonRequest {
  /** The `{name}` segments of the route's path, each percent-decoded once. */
  params: Record<string, string>;
  /** The query string; repeatable parameters through `getAll`. */
  query: URLSearchParams;
  /** The parsed JSON body of a POST or PATCH (undefined when empty, and for other methods). */
  body: unknown;
}

/** A whole answer: status, extra headers, and a JSON body, or `text` sent as it is (its content-type in `headers`); neither: an empty body, as a 204 or a HEAD has. */
export interface JsonAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  text?: string;
}

/**
 * A JSON route outside GraphQL and Rest.li (e.g. DataHub's OpenAPI paths), authenticated by the host, also served
 * under `/api/gms`. `path` is fixed segments and `{name}` parameters, each matching one segment (a fixed segment wins
 * over a parameter). The handler's result is the JSON body of a 200, or with `whole`, a JsonAnswer. An ApiError
 * becomes its status and `{message, status}`, or DataHub OpenAPI's `{error}` when `errorBody` says so.
 */
export interface JsonRoute {
  method: 'GET' | 'HEAD' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  errorBody?: 'message' | 'error';
  /** Takes the operator's bulk body limit (MAX_INGEST_BODY_BYTES) and an ingestion slot, as bulk Rest.li actions do. */
  bulk?: boolean;
  /** As RestliAction's `admit`: whether the caller could write anything here, asked before a slot or a large body is given. */
  admit?: RestliAction['admit'];
  /** The handler answers a whole JsonAnswer (status, headers, body) rather than the body of a 200. */
  whole?: boolean;
  /** Also signed in by the web UI's session cookie (then only from a page of this site), as `/api/v2/graphql` is. */
  session?: boolean;
  /** The host always passes `request`; a route without parameters may ignore it. */
  handler(context: ApiContext, request?: JsonRequest): unknown;
}

/**
 * A gauge a module contributes to `/metrics`, read at each scrape (never on the request path). `collect` answers
 * the current samples; when it fails (a cluster down) the gauge is left empty rather than failing the scrape.
 */
export interface ModuleGauge {
  /** Prometheus name, `mds_` first. */
  name: string;
  help: string;
  labelNames: readonly string[];
  collect(): Promise<readonly { labels: Record<string, string>; value: number }[]>;
}

/**
 * What a domain package hands the host: its SDL and resolvers, its Rest.li actions and routes, the metrics and the
 * readiness check of what it owns, and how to release what it holds.
 */
export interface ApiModule {
  name: string;
  /** The GraphQL SDL the module answers (files beside its resolvers, `sdlFiles`); the schema is assembled from every module's. */
  typeDefs?: readonly string[];
  /** Its resolvers: one map, or several each giving some types or fields (merged type by type, field by field). */
  resolvers?: Resolvers | readonly Resolvers[];
  actions?: RestliAction[];
  reads?: RestliRead[];
  routes?: JsonRoute[];
  /** Its gauges on `/metrics` (the host adds only request metrics and the process's own). */
  metrics?: readonly ModuleGauge[];
  /** For `/health`: resolves when what the module owns can serve, throws saying why not. */
  ready?(): Promise<void>;
  close?(): void | Promise<void>;
}

/**
 * What every domain package's factory resolves to, `createX(deps) → Promise<Domain<XService>>`: the module the host
 * serves and the service other packages and the CLI call. `Extra` holds what a package also lends (a port for the
 * CLI and the benchmarks, the pieces another package's face needs).
 */
export type Domain<Service, Extra extends object = object> = { module: ApiModule; service: Service } & Extra;
