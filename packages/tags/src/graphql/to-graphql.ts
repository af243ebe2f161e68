import { toGraphQLOwnership } from '@mds/entities';
import type { AuditStamp, EntityParent, ResolversTypes, TagProperties } from '@mds/schema';
import type { Tag } from '../types';

/**
 * A stored tag in the shape of DataHub's `Tag`. `__typename` lets graphql-js resolve the `Entity` interface and the
 * `OwnerType` union without a type resolver, so other packages' entities can join them freely. A Tag answers as any
 * entity parent does (codegen mappers); each field's value is held to its SDL type here.
 */
export function toGraphQLTag(tag: Tag): EntityParent {
  return {
    __typename: 'Tag',
    urn: tag.urn,
    type: 'TAG',
    name: tag.id,
    description: tag.description,
    editableProperties: null,
    properties: { name: tag.name, description: tag.description, colorHex: tag.colorHex } satisfies TagProperties,
    ownership: (tag.ownership && toGraphQLOwnership(tag.ownership, tag.urn)) satisfies ResolversTypes['Ownership'] | null,
    created: tag.created satisfies AuditStamp,
    lastModified: tag.lastModified satisfies AuditStamp,
  };
}
