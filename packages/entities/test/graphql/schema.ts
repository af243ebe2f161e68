import { buildApiSchema, type ApiModule } from '@mds/schema';
import { repositoryTypeDefs } from '@mds/schema/repository-sdl';

/**
 * An executable schema of this package's GraphQL module alone: its resolvers over the whole API's SDL, since its types
 * point at others' (TagAssociation.tag is a Tag, which @mds/tags declares; the host composes both).
 */
export const schemaOf = (module: ApiModule) => buildApiSchema([{ typeDefs: repositoryTypeDefs(), resolvers: module.resolvers }]);
