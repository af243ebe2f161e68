import type { RestliAction } from './actions';
import type { Resolvers } from './generated/resolvers-types';

/** What a domain package hands the host: its resolvers, its Rest.li actions, and how to release what it holds. */
export interface ApiModule {
  name: string;
  resolvers?: Resolvers;
  actions?: RestliAction[];
  close?(): void | Promise<void>;
}
