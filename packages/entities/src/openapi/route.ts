import type { ApiContext, JsonRoute } from '@mds/schema';

/** What a route is handed (the host's JsonRequest), named here from the route type @mds/schema exports. */
export type OpenApiRequest = NonNullable<Parameters<JsonRoute['handler']>[1]>;

/** A whole answer (the host's JsonAnswer): status, extra headers, a JSON body or a `text` (none: empty, as a 204 has). */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  text?: string;
}

/** A route of this package: it answers whole, and its failures are DataHub OpenAPI's `{"error": ...}`. */
export interface OpenApiRoute extends Pick<JsonRoute, 'method' | 'path' | 'bulk' | 'admit'> {
  respond(context: ApiContext, request: OpenApiRequest): Answer | Promise<Answer>;
}

export const toJsonRoute = ({ respond, ...route }: OpenApiRoute): JsonRoute => ({
  ...route,
  whole: true,
  errorBody: 'error',
  handler: (context, request) => respond(context, request!),
});
