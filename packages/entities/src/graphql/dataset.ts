import { browsePathsField } from './browse';
import { isJsonObject, parseUrn } from '@mds/core';
import type { ApiContext, EntityParent, Resolvers } from '@mds/schema';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import { ASSET_COMMON, ASSET_FIELDS, assetResolvers, pick } from './asset-fields';
import { COMMON_FIELDS } from './common';
import { text, type Loaders, type Parent } from './common-fields';
import { idOf } from './ownership';
import { toGraphQL, type Json, type TypeRules } from './mapping/convert';
import type { EntityMapping } from './mapping/declare';
import { entityRef } from './typenames';
import { schemaFieldUrn } from '../model/relationships';

/**
 * The GraphQL object of an urn of a type this package answers. The types declared as mappings (datasets, charts,
 * dashboards, flows, jobs, containers, platforms) need nothing but the urn: each field resolves from the entity's
 * aspects. Users, groups and domains still carry what their urn says.
 */
export function entityObject(urn: string): EntityParent | undefined {
  const { entityType, parts } = parseUrn(urn);
  switch (entityType) {
    case 'corpuser':
      return { __typename: 'CorpUser', urn, type: 'CORP_USER', username: parts[0]! };
    case 'corpGroup':
      return { __typename: 'CorpGroup', urn, type: 'CORP_GROUP', name: parts[0]! };
    case 'domain':
      return { __typename: 'Domain', urn, type: 'DOMAIN', id: parts[0]! };
    case 'dataset':
    case 'dashboard':
    case 'chart':
    case 'dataFlow':
    case 'dataJob':
    case 'container':
    case 'dataPlatform':
    case 'dataPlatformInstance':
      return entityRef(urn);
    default:
      return undefined;
  }
}

/** A schemaMetadata value as DataHub's mappers read it: fields without a path are dropped, its version beside it. */
const schemaOf = (value: Json | undefined, extra: Json): Json | undefined =>
  value && {
    ...value,
    ...extra,
    fields: (Array.isArray(value.fields) ? value.fields : []).filter((f) => isJsonObject(f) && !!text(f.fieldPath)),
  };

/** The member of a field's PDL type union (`com.linkedin.schema.StringType`) as DataHub's SchemaFieldDataType. */
export function fieldType(field: Json): string | undefined {
  const union = isJsonObject(field.type) && isJsonObject(field.type.type) ? Object.keys(field.type.type)[0] : undefined;
  const name = union?.split('.').pop()?.replace(/Type$/, '').toUpperCase();
  return name === 'RECORD' ? 'STRUCT' : name;
}

/** A platform schema's text: a table schema, or a key and a value schema; a schemaless one has none (PlatformSchemaMapper). */
const TABLE_SCHEMA_KEYS: Readonly<Record<string, string>> = {
  PrestoDDL: 'rawSchema',
  OracleDDL: 'tableSchema',
  MySqlDDL: 'tableSchema',
  KafkaSchema: 'documentSchema',
  OrcSchema: 'schema',
  BinaryJsonSchema: 'schema',
  OtherSchema: 'rawSchema',
};
function platformSchema(value: unknown): Json | undefined {
  const [member, body] = isJsonObject(value) ? (Object.entries(value)[0] ?? []) : [];
  if (typeof member !== 'string' || !isJsonObject(body)) return undefined;
  const name = member.split('.').pop()!;
  if (name === 'EspressoSchema') return { KeyValueSchema: { keySchema: body.tableSchema, valueSchema: body.documentSchema } };
  if (name === 'KeyValueSchema') return { KeyValueSchema: { keySchema: body.keySchema, valueSchema: body.valueSchema } };
  const key = TABLE_SCHEMA_KEYS[name];
  return key ? { TableSchema: { schema: body[key] } } : undefined;
}
/** `{ TableSchema: {…} }` → the member the union's conversion expects (`x.TableSchema`). */
const member = (value: Json | undefined) => value && Object.fromEntries(Object.entries(value).map(([k, v]) => [`graphql.${k}`, v]));

const schemaRules = {
  name: 'schemaName',
  platformUrn: 'platform',
  datasetUrn: 'dataset',
  platformSchema: (v: Json) => member(platformSchema(v.platformSchema)),
};

/** How the dataset's own aspect types are read where their stored keys differ (DataHub's dataset mappers). */
export const DATASET_RULES: TypeRules = {
  DatasetProperties: {
    name: (v, scope) => text(v.name) ?? parseUrn(scope.urn).parts[1],
    origin: (_v, scope) => parseUrn(scope.urn).parts[2],
    createdActor: (v) => (isJsonObject(v.created) ? v.created.actor : undefined),
    // No lastModified: DataHub's AuditStamp of time 0 and no actor.
    lastModified: (v) => v.lastModified ?? { time: 0 },
    lastModifiedActor: (v) => (isJsonObject(v.lastModified) ? v.lastModified.actor : undefined),
  },
  SchemaMetadata: schemaRules,
  Schema: schemaRules,
  SchemaField: {
    type: fieldType,
    tags: 'globalTags',
    // PDL defaults of the record (DataHub reads them as false when absent).
    isPartOfKey: (v) => v.isPartOfKey ?? false,
    isPartitioningKey: (v) => v.isPartitioningKey ?? false,
    // SchemaFieldUtils.generateSchemaFieldUrn: the path with its parentheses and commas escaped.
    schemaFieldEntity: (v, scope) => (typeof v.fieldPath === 'string' ? schemaFieldUrn(scope.urn, v.fieldPath) : null),
  },
  EditableSchemaFieldInfo: { tags: 'globalTags' },
  GlossaryTermAssociation: { term: 'urn' },
  ViewProperties: { logic: 'viewLogic', formattedLogic: 'formattedViewLogic', language: 'viewLanguage' },
};

/** `Dataset`, declared from its aspects as DataHub's DatasetMapper maps them. */
export function datasetMapping(loaders: Loaders, rules: TypeRules): EntityMapping {
  return {
    entity: 'dataset',
    fields: {
      // The name in the key, unless datasetProperties names it.
      name: (e) => text(e.value('datasetProperties')?.name) ?? e.parts[1],
      origin: (e) => e.parts[2],
      platform: (e) => e.parts[0],
      properties: 'datasetProperties',
      editableProperties: 'editableDatasetProperties',
      embed: 'embed',
      browsePaths: browsePathsField,
      // DataHub's DatasetMapper never sets it (the URL is in properties): null, as there.
      externalUrl: () => undefined,
      description: (e) => e.value('datasetProperties')?.description,
      uri: (e) => e.value('datasetProperties')?.uri,
      schema: (e) => {
        const stored = e.aspects.get('schemaMetadata');
        return schemaOf(stored?.value, { lastObserved: stored?.systemMetadata?.lastObserved });
      },
      editableSchemaMetadata: 'editableSchemaMetadata',
      viewProperties: 'viewProperties',
      fineGrainedLineages: (e) => e.value('upstreamLineage')?.fineGrainedLineages,
      browsePathV2: COMMON_FIELDS.browsePathV2,
      ...ASSET_FIELDS,
    },
    resolvers: {
      ...pick(assetResolvers(loaders), ASSET_COMMON),
      schemaMetadata: schemaMetadataResolver(loaders, rules),
    },
  };
}

/**
 * `schemaMetadata(version:)` of an entity type whose model carries the aspect (a dataset, a glossary term): a version
 * of the aspect (0 or absent: the latest), with that version beside it (DataHub's AspectResolver, SchemaMetadataMapper).
 */
export function schemaMetadataResolver(loaders: Loaders, rules: TypeRules) {
  return async (parent: Parent, { version }: { version?: number | null }, context: ApiContext, info: GraphQLResolveInfo) => {
    const reader = loaders(context);
    const stored = version
      ? await reader.reader.get(parent.urn, 'schemaMetadata', version)
      : (await reader.aspects(parent.urn))?.get('schemaMetadata');
    const value = schemaOf(stored?.value, { aspectVersion: stored?.version });
    return toGraphQL(value, info.returnType, { urn: parent.urn, schema: info.schema, rules }, info);
  };
}

/** Resolvers of the types the dataset's aspects lead to. */
export function datasetResolvers(loaders: Loaders): Resolvers {
  return {
    TagAssociation: {
      // The tag as the tags' face answers it; a tag without an entity still shows its urn and id. A selection of
      // nothing but what the urn says needs no read.
      tag: async (parent, _args, context, info) =>
        (asksOnlyKey(info) || !parent.tag ? undefined : await loaders(context).entity('TAG', parent.tag.urn)) ?? {
          name: idOf(parent.tag!.urn),
          ...parent.tag!,
        },
    },
    // A term converted from its urn carries no name: the id in the urn, as before (common-fields.ts).
    GlossaryTermAssociation: {
      term: (parent) => ({ name: idOf(parent.term!.urn), ...parent.term! }),
    },
  };
}

/** Fields an entity object knows from its urn alone. */
const KEY_FIELDS = new Set(['urn', 'type', 'name', '__typename']);

/** Whether the field's selection asks for nothing but key fields (no fragment, no other field). */
function asksOnlyKey(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.every(
    (node) => node.selectionSet?.selections.every((s) => s.kind === Kind.FIELD && KEY_FIELDS.has(s.name.value)) ?? true,
  );
}
