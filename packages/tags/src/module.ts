import type { ApiModule } from '@mds/schema';
import { createWriterThread, type SqliteDatabase } from '@mds/sqlite';
import { createTagResolvers, type ApplyWrite } from './graphql/resolvers';
import { applyOnWriterThread, createTagStore, type TagStore, type TagStoreOptions } from './store';

export interface TagsModuleOptions extends TagStoreOptions {
  /** The database to keep tags in; the caller owns it (opens and closes it). */
  db: SqliteDatabase;
}

/**
 * Applies the tags migrations and returns the module for the host plus the store for direct use. The module's
 * writes go to a writer thread: concurrent mutations share one durable commit, and the event loop serves other
 * requests while that commit waits for the disk. (An in-memory database has no file a second connection could
 * open, so there writes run in place.)
 */
export function createTagsModule(options: TagsModuleOptions): { module: ApiModule; store: TagStore } {
  const store = createTagStore(options.db, options);
  const writer = options.db.memory ? undefined : createWriterThread(options.db.name);
  const apply: ApplyWrite = writer ? (write) => applyOnWriterThread(writer, write) : async (write) => store.apply(write);
  return { module: { name: 'tags', resolvers: createTagResolvers(store, apply), close: () => writer?.close() }, store };
}
