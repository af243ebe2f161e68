import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './generated/openapi';

export type { components as OpenApiComponents, paths as OpenApiPaths } from './generated/openapi';
/** A component schema of mds's OpenAPI document by name: `OpenApiSchema<'GlobalTags'>`, `OpenApiSchema<'DatasetEntity'>`. */
export type OpenApiSchema<Name extends keyof components['schemas']> = components['schemas'][Name];
export type OpenApiClient = Client<paths>;

export interface OpenApiClientOptions {
  /** The server's base URL, e.g. `http://localhost:8080` (no path). */
  baseUrl: string;
  /** A personal access token, sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Replaces the global fetch (tests, proxies). */
  fetch?: typeof fetch;
}

/**
 * An openapi-fetch client typed by the OpenAPI document mds serves (`/openapi/v3/api-docs`): every path, parameter,
 * body and answer of the v3 entity API, the v1 calls and the operations, checked at compile time.
 */
export function createOpenApiClient(options: OpenApiClientOptions): OpenApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.token}` },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
