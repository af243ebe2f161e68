import type { SqliteDatabase } from '@mds/db';
import type { DescriptionHandler, EntityFace } from '@mds/entities';
import { sdlFiles, type Domain } from '@mds/schema';
import { createTagResolvers, describeTag, tagFace } from './graphql/resolvers';
import { moveLegacyTags } from './legacy';
import { TagService, type TagEntities, type TagServiceOptions } from './service';

/** The SDL of tags, beside their resolvers. */
const TYPE_DEFS = sdlFiles(new URL('./graphql/', import.meta.url), 'tags.graphql');

export interface TagsDeps extends TagServiceOptions {
  /** The entity service and search index the tags live in. */
  entities: TagEntities;
  /** The database an older mds kept tags in (`mds.db`): its tags move into `entities` first. */
  legacy?: SqliteDatabase;
}

/** The module is named 'tags' (src/graphql/tags.graphql and its resolvers); `face` and `describe` are lent to `createEntityGraphql`. */
export type Tags = Domain<TagService, { face: EntityFace; describe: DescriptionHandler }>;

/**
 * The tags module for the host, the service for direct use, the face tags show in entity-wide queries and how a tag
 * is described (the host hands both to @mds/entities' `createEntityGraphql`, as `TAG` and `tag`). First moves tags an
 * older mds kept apart.
 */
export async function createTags(options: TagsDeps): Promise<Tags> {
  if (options.legacy) await moveLegacyTags(options.legacy, options.entities);
  const service = createTagService(options.entities, options);
  return {
    module: { name: 'tags', typeDefs: TYPE_DEFS, resolvers: createTagResolvers(service) },
    service,
    face: tagFace(service),
    describe: describeTag(service),
  };
}

/** The tag service over tags in `entities`, usable without GraphQL. */
export function createTagService(entities: TagEntities, options: TagServiceOptions = {}): TagService {
  return new TagService(entities, options);
}
