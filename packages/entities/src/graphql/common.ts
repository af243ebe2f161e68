import { isJsonObject, parseUrn, UrnError } from '@mds/core';
import type { Json, TypeRules } from './mapping/convert';
import type { EntityFieldRule, EntityScope } from './mapping/declare';
import { systemTypeUrn, UNKNOWN_STAMP } from './ownership';

const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);
/** The two parts of a schemaField urn (the entity the field belongs to, the field's path); undefined for any other value. */
export function schemaFieldParts(urn: unknown): readonly [owner: string, path: string] | undefined {
  if (typeof urn !== 'string') return undefined;
  try {
    const { entityType, parts } = parseUrn(urn);
    return entityType === 'schemaField' && parts.length === 2 ? [parts[0]!, parts[1]!] : undefined;
  } catch (error) {
    if (error instanceof UrnError) return undefined;
    throw error;
  }
}

/**
 * The schemaField urns of a column-level lineage's ends as DataHub's `SchemaFieldRef`s (the urn of the entity the field
 * belongs to, the field's path); urns of other types (a whole dataset) left out, as FineGrainedLineagesMapper filters
 * them. Absent when the end is not stored.
 */
const schemaFieldRefs = (value: unknown) =>
  Array.isArray(value)
    ? value.flatMap((urn) => {
        const parts = schemaFieldParts(urn);
        return parts ? [{ urn: parts[0], path: parts[1] }] : [];
      })
    : undefined;

const first = (value: unknown) => (Array.isArray(value) ? value.find((v): v is string => typeof v === 'string') : undefined);

/**
 * How the aspect types every entity shares are read from what is stored, where a field's name or shape differs from
 * the PDL record (DataHub's common mappers: OwnerMapper, GlossaryTermsMapper, InstitutionalMemoryMetadataMapper,
 * StructuredPropertiesMapper, BrowsePathsV2Mapper, SiblingsMapper …). Every other field is read from the key of
 * its own name (`toGraphQL`).
 */
export const COMMON_RULES: TypeRules = {
  // PDL's default stamp where the aspect has none.
  Ownership: { lastModified: (ownership) => ownership.lastModified ?? UNKNOWN_STAMP },
  Owner: {
    // The legacy `type` names a system ownership type when no `typeUrn` is stored.
    ownershipType: (owner) =>
      typeof owner.typeUrn === 'string' ? owner.typeUrn : typeof owner.type === 'string' ? systemTypeUrn(owner.type) : undefined,
  },
  GlossaryTermAssociation: { term: 'urn' },
  InstitutionalMemoryMetadata: {
    label: 'description',
    author: (link) => (isJsonObject(link.createStamp) ? link.createStamp.actor : undefined),
    actor: (link) => (isJsonObject(link.createStamp) ? link.createStamp.actor : undefined),
    created: 'createStamp',
    updated: 'updateStamp',
  },
  DomainAssociation: {},
  BrowsePathEntry: { name: 'id', entity: 'urn' },
  StructuredPropertiesEntry: {
    structuredProperty: 'propertyUrn',
    // `{ "string": … }` / `{ "double": … }` members of PDL's PrimitivePropertyValue.
    values: (entry) =>
      list(entry.values).map((v) =>
        typeof v.string === 'string'
          ? { __typename: 'StringValue', stringValue: v.string }
          : { __typename: 'NumberValue', numberValue: v.double },
      ),
    valueEntities: (entry) =>
      list(entry.values).flatMap((v) => (typeof v.string === 'string' && v.string.startsWith('urn:li:') ? [v.string] : [])),
  },
  FormAssociation: { form: 'urn' },
  FormPromptAssociation: { lastModified: 'lastModified' },
  FormVerificationAssociation: { form: 'form' },
  VersionProperties: {
    version: 'version',
    aliases: 'aliases',
    isLatest: (v) => v.isLatest === true,
    created: 'metadataCreatedTimestamp',
    createdInSource: 'sourceCreatedTimestamp',
  },
  ApplicationAssociation: {},
  RoleAssociation: { role: 'urn' },
  // Column-level lineage, of a dataset's upstreamLineage or a job's dataJobInputOutput (FineGrainedLineagesMapper).
  FineGrainedLineage: { upstreams: (v) => schemaFieldRefs(v.upstreams), downstreams: (v) => schemaFieldRefs(v.downstreams) },
};

/** DomainAssociation / ApplicationAssociation from an aspect listing urns: the first one, as DataHub's mappers take. */
const firstOf = (aspect: string, key: string, field: string) => (entity: EntityScope) => {
  const urn = first(entity.value(aspect)?.[key]);
  return urn ? { [field]: urn } : undefined;
};

/**
 * The entity-level fields every entity type with these aspects answers alike (DataHub maps each the same way for
 * every type); an entity mapping spreads the ones its GraphQL type declares.
 */
export const COMMON_FIELDS = {
  ownership: 'ownership',
  tags: 'globalTags',
  globalTags: 'globalTags',
  glossaryTerms: 'glossaryTerms',
  institutionalMemory: 'institutionalMemory',
  deprecation: 'deprecation',
  status: 'status',
  subTypes: 'subTypes',
  domain: firstOf('domains', 'domains', 'domain'),
  application: firstOf('applications', 'applications', 'application'),
  browsePathV2: 'browsePathsV2',
  embed: 'embed',
  documentation: 'documentation',
  structuredProperties: 'structuredProperties',
  forms: 'forms',
  access: 'access',
  displayProperties: 'displayProperties',
  versionProperties: 'versionProperties',
} satisfies Record<string, EntityFieldRule>;
