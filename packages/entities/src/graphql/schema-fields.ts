import type { Resolvers } from '@mds/schema';
import { COMMON_FIELDS, COMMON_RULES } from './common';
import { refWithKey, type Loaders } from './common-fields';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';

/**
 * `SchemaFieldEntity` (DataHub's SchemaFieldMapper): its field path and parent from the urn's two parts, and the
 * aspects written on the field entity itself (tags, terms, documentation, deprecation, status, forms).
 */
export function schemaFieldResolvers(loaders: Loaders): Resolvers {
  const mapping: EntityMapping = {
    entity: 'schemaField',
    fields: {
      fieldPath: (e) => e.parts[1],
      parent: (e) => e.parts[0],
      tags: COMMON_FIELDS.tags,
      glossaryTerms: COMMON_FIELDS.glossaryTerms,
      documentation: COMMON_FIELDS.documentation,
      deprecation: COMMON_FIELDS.deprecation,
      status: COMMON_FIELDS.status,
      forms: COMMON_FIELDS.forms,
    },
  };
  return entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey });
}
