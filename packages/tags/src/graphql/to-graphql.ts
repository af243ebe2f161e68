import type { ResolversTypes } from '@mds/schema';
import type { Tag, TagSearchHit } from '../types';
import { usernameOf } from '../urn';

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
    // DataHub makes the creator a technical owner when a tag is created; ownership has not changed since.
    ownership: {
      owners: [
        {
          owner: { __typename: 'CorpUser', urn: tag.created.actor, type: 'CORP_USER', username: usernameOf(tag.created.actor) },
          type: 'TECHNICAL_OWNER',
          associatedUrn: tag.urn,
        },
      ],
      lastModified: tag.created,
    },
    created: tag.created,
    lastModified: tag.lastModified,
  };
}

export function toSearchResult(hit: TagSearchHit): ResolversTypes['SearchResult'] {
  return { entity: toGraphQLTag(hit.tag), matchedFields: hit.matchedFields };
}
