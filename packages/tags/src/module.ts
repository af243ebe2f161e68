import { ApiError, type ApiModule } from '@mds/schema';
import { createGroupCommit, type SqliteDatabase } from '@mds/db';
import { createTagResolvers } from './graphql/resolvers';
import { createTagStore, type TagStore, type TagStoreOptions } from './store';

export interface TagsModuleOptions extends TagStoreOptions {
  /** The database to keep tags in; the caller owns it (opens and closes it). */
  db: SqliteDatabase;
}

/**
 * Applies the tags migrations and returns the module for the host plus the store for direct use. The module's
 * writes are group-committed: concurrent mutations share one durable commit instead of one fsync each.
 */
export function createTagsModule(options: TagsModuleOptions): { module: ApiModule; store: TagStore } {
  const store = createTagStore(options.db, options);
  // The store throws an ApiError only before a write changed anything (see TagStore): a refusal, not a failure.
  const commits = createGroupCommit(options.db, { isRefusal: (error) => error instanceof ApiError });
  return { module: { name: 'tags', resolvers: createTagResolvers(store, commits) }, store };
}
