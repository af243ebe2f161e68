import { toGraphQLOwnership } from '@mds/entities';
import type { ResolversTypes } from '@mds/schema';
import type { Tag } from '../types';

/**
 * A stored tag in the shape of DataHub's `Tag`. `__typename` lets graphql-js resolve the `Entity` interface and the
 * `OwnerType` union without a type resolver, so other packages' entities can join them freely.
 */
export function toGraphQLTag(tag: Tag): ResolversTypes['Tag'] {
  return {
    __typename: 'Tag',
    urn: tag.urn,
    type: 'TAG',
    name: tag.id,
    description: tag.description,
    properties: { name: tag.name, description: tag.description, colorHex: tag.colorHex },
    ownership: tag.ownership && toGraphQLOwnership(tag.ownership, tag.urn),
    created: tag.created,
    lastModified: tag.lastModified,
  };
}
