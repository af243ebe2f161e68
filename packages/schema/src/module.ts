import type { RestliAction, RestliRead } from './actions';
import type { ApiContext } from './context';
import type { Resolvers } from './generated/resolvers-types';

/**
 * A JSON route outside GraphQL and Rest.li (e.g. DataHub's OpenAPI paths): authenticated by the host, answered with
 * the handler's result as the JSON body; an ApiError becomes its status and `{message, status}`.
 */
export interface JsonRoute {
  method: 'GET' | 'POST';
  path: string;
  handler(context: ApiContext): unknown;
}

/** What a domain package hands the host: its resolvers, its Rest.li actions, and how to release what it holds. */
export interface ApiModule {
  name: string;
  resolvers?: Resolvers;
  actions?: RestliAction[];
  reads?: RestliRead[];
  routes?: JsonRoute[];
  close?(): void | Promise<void>;
}
