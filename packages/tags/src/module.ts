import type { SqliteDatabase } from '@mds/db';
import type { DescriptionHandler, EntityFace } from '@mds/entities';
import type { ApiModule } from '@mds/schema';
import { createTagResolvers, describeTag, tagFace } from './graphql/resolvers';
import { moveLegacyTags } from './legacy';
import { TagStore, type TagEntities, type TagStoreOptions } from './store';

export interface TagsModuleOptions extends TagStoreOptions {
  /** The aspect store and search index the tags live in. */
  entities: TagEntities;
  /** The database an older mds kept tags in (`mds.db`): its tags move into `entities` first. */
  legacy?: SqliteDatabase;
}

/**
 * The tags module for the host, the store for direct use, the face tags show in entity-wide queries and how a tag is
 * described (the host hands both to @mds/entities' `createEntityGraphql`, as `TAG` and `tag`). First moves tags an older mds kept apart.
 */
export async function createTagsModule(
  options: TagsModuleOptions,
): Promise<{ module: ApiModule; store: TagStore; face: EntityFace; describe: DescriptionHandler }> {
  if (options.legacy) await moveLegacyTags(options.legacy, options.entities);
  const store = createTagStore(options.entities, options);
  return { module: { name: 'tags', resolvers: createTagResolvers(store) }, store, face: tagFace(store), describe: describeTag(store) };
}

/** A store over tags in `entities`, usable without GraphQL. */
export function createTagStore(entities: TagEntities, options: TagStoreOptions = {}): TagStore {
  return new TagStore(entities, options);
}
