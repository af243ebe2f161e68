import type { OwnershipType, ResolversTypes } from '@mds/schema';
import type { Tag } from '../types';
import { usernameOf } from '../urn';

const CORP_USER = 'urn:li:corpuser:';
const OWNERSHIP_TYPES = new Set(['TECHNICAL_OWNER', 'BUSINESS_OWNER', 'DATA_STEWARD', 'NONE', 'CUSTOM']);

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
    ownership: tag.ownership && {
      // OwnerType knows corp users only so far; other owners (groups) are left out rather than mistyped.
      owners: tag.ownership.owners
        .filter((owner) => owner.owner.startsWith(CORP_USER))
        .map((owner) => ({
          owner: { __typename: 'CorpUser' as const, urn: owner.owner, type: 'CORP_USER' as const, username: usernameOf(owner.owner) },
          type: OWNERSHIP_TYPES.has(owner.type ?? '') ? (owner.type as OwnershipType) : null,
          associatedUrn: tag.urn,
        })),
      lastModified: tag.ownership.lastModified,
    },
    created: tag.created,
    lastModified: tag.lastModified,
  };
}
