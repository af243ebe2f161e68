import { isJsonObject, parseUrn } from '@mds/core';
import type { ApiContext, EntityParent, FabricType, Resolvers, SchemaFieldDataType } from '@mds/schema';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import type { StoredAspect } from '../service';
import { commonFields, globalTags, glossaryTerms, list, text, urnOf, type Json, type Loaders, type Parent } from './common-fields';
import { idOf } from './ownership';

/** The GraphQL `Dataset` of a dataset urn: what the urn says; every other field is read from its aspects. */
export function datasetObject(urn: string): EntityParent {
  // DataPlatform.properties and every other field of Dataset have resolvers of their own.
  const [platform, name] = parseUrn(urn).parts as [string, string];
  return {
    __typename: 'Dataset',
    urn,
    type: 'DATASET',
    name,
    platform: { __typename: 'DataPlatform', urn: platform, type: 'DATA_PLATFORM', name: idOf(platform) },
  };
}

/** A stamp of an aspect, or DataHub's default when absent. */
const stamp = (value: unknown) =>
  isJsonObject(value) && typeof value.time === 'number' ? { time: value.time, actor: text(value.actor) } : { time: 0, actor: null };

/** `properties` of a dashboard, chart, flow or job from its info aspect (`title` or `name`). */
function infoProperties(v: Json | undefined, urn: string) {
  if (!v) return null;
  const changes = isJsonObject(v.lastModified) ? v.lastModified : {};
  return {
    name: text(v.title) ?? text(v.name) ?? '',
    description: text(v.description),
    externalUrl: text(v.externalUrl) ?? text(v.chartUrl) ?? text(v.dashboardUrl),
    access: text(v.access),
    customProperties: Object.entries(isJsonObject(v.customProperties) ? v.customProperties : {}).map(([key, val]) => ({
      key,
      value: text(val),
      associatedUrn: urn,
    })),
    lastRefreshed: typeof v.lastRefreshed === 'number' ? v.lastRefreshed : null,
    created: stamp(changes.created),
    lastModified: stamp(changes.lastModified),
  };
}

const editable = (v: Json | undefined) => (v ? { description: text(v.description) } : null);

/** A data platform by its urn or its name (`hive`, as a dashboard's tool): what the urn says. */
export function platformObject(tool: string): EntityParent {
  const urn = tool.startsWith('urn:li:dataPlatform:') ? tool : `urn:li:dataPlatform:${tool}`;
  return { __typename: 'DataPlatform', urn, type: 'DATA_PLATFORM', name: tool.startsWith('urn:li:dataPlatform:') ? idOf(tool) : tool };
}

/** The GraphQL object of an urn of a type this package answers (its key parts; the rest resolves from aspects). */
export function entityObject(urn: string): EntityParent | undefined {
  const { entityType, parts } = parseUrn(urn);
  const platform = platformObject;
  switch (entityType) {
    case 'dataset':
      return datasetObject(urn);
    case 'dashboard':
      return {
        __typename: 'Dashboard',
        urn,
        type: 'DASHBOARD',
        tool: parts[0],
        dashboardId: parts[1],
        platform: platform(parts[0]!),
      };
    case 'chart':
      return {
        __typename: 'Chart',
        urn,
        type: 'CHART',
        tool: parts[0],
        chartId: parts[1],
        platform: platform(parts[0]!),
      };
    case 'dataFlow':
      return { __typename: 'DataFlow', urn, type: 'DATA_FLOW', orchestrator: parts[0], flowId: parts[1], cluster: parts[2] };
    case 'dataJob':
      return {
        __typename: 'DataJob',
        urn,
        type: 'DATA_JOB',
        jobId: parts[1],
        dataFlow: entityObject(parts[0]!),
      };
    case 'container':
      return { __typename: 'Container', urn, type: 'CONTAINER' };
    case 'corpuser':
      return { __typename: 'CorpUser', urn, type: 'CORP_USER', username: parts[0]! };
    case 'corpGroup':
      return { __typename: 'CorpGroup', urn, type: 'CORP_GROUP', name: parts[0]! };
    case 'domain':
      return { __typename: 'Domain', urn, type: 'DOMAIN', id: parts[0]! };
    case 'dataPlatform':
      return { __typename: 'DataPlatform', urn, type: 'DATA_PLATFORM', name: parts[0]! };
    default:
      return undefined;
  }
}

/** `{"com.linkedin.schema.StringType": {}}` → STRING (DataHub's SchemaFieldDataType; a record is a STRUCT). */
function fieldType(value: unknown): SchemaFieldDataType {
  const union = isJsonObject(value) && isJsonObject(value.type) ? Object.keys(value.type)[0] : undefined;
  const name = union?.split('.').pop()?.replace(/Type$/, '').toUpperCase();
  if (name === 'RECORD') return 'STRUCT';
  const known = ['BOOLEAN', 'FIXED', 'STRING', 'BYTES', 'NUMBER', 'DATE', 'TIME', 'ENUM', 'NULL', 'MAP', 'ARRAY', 'UNION'] as const;
  return known.find((k) => k === name) ?? 'NULL';
}

function schemaMetadata(stored: StoredAspect, urn: string) {
  const v = stored.value;
  return {
    name: text(v.schemaName) ?? '',
    platformUrn: text(v.platform) ?? '',
    version: typeof v.version === 'number' ? v.version : 0,
    hash: text(v.hash) ?? '',
    aspectVersion: stored.version,
    primaryKeys: Array.isArray(v.primaryKeys) ? v.primaryKeys.filter((k): k is string => typeof k === 'string') : null,
    fields: list(v.fields).map((f) => ({
      fieldPath: text(f.fieldPath) ?? '',
      jsonPath: text(f.jsonPath),
      label: text(f.label),
      nullable: f.nullable === true,
      description: text(f.description),
      type: fieldType(f.type),
      nativeDataType: text(f.nativeDataType),
      recursive: f.recursive === true,
      tags: globalTags(f.globalTags, urn),
      glossaryTerms: glossaryTerms(f.glossaryTerms, urn),
      isPartOfKey: typeof f.isPartOfKey === 'boolean' ? f.isPartOfKey : null,
      isPartitioningKey: typeof f.isPartitioningKey === 'boolean' ? f.isPartitioningKey : null,
    })),
  };
}

/** Field resolvers of `Dataset` and the types it leads to: each reads the request's batched aspects. */
export function datasetResolvers(loaders: Loaders): Resolvers {
  const aspect = async (urn: string, name: string, context: ApiContext) => (await loaders(context).aspects(urn))?.get(name);
  const value = async (urn: string, name: string, context: ApiContext) => (await aspect(urn, name, context))?.value;

  const common = commonFields(loaders);

  return {
    Dataset: {
      // The display name DataHub gives a dataset: its properties' name when set, else the key's.
      name: async (parent: Parent, _args: unknown, context: ApiContext) =>
        text((await value(urnOf(parent), 'datasetProperties', context))?.name) ?? parseUrn(urnOf(parent)).parts[1]!,
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'datasetProperties', context);
        if (!v) return null;
        // The key's origin: a FabricType, as the urn was checked when the dataset was written.
        const origin = parseUrn(urnOf(parent)).parts[2] as FabricType;
        const lastModified =
          isJsonObject(v.lastModified) && typeof v.lastModified.time === 'number'
            ? { time: v.lastModified.time, actor: text(v.lastModified.actor) }
            : { time: 0, actor: null };
        return {
          name: text(v.name) ?? parseUrn(urnOf(parent)).parts[1]!,
          qualifiedName: text(v.qualifiedName),
          origin,
          description: text(v.description),
          customProperties: Object.entries(isJsonObject(v.customProperties) ? v.customProperties : {}).map(([key, val]) => ({
            key,
            value: text(val),
            associatedUrn: urnOf(parent),
          })),
          externalUrl: text(v.externalUrl),
          created: isJsonObject(v.created) && typeof v.created.time === 'number' ? v.created.time : null,
          lastModified,
        };
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'editableDatasetProperties', context);
        return v ? { description: text(v.description), name: text(v.name) } : null;
      },
      schemaMetadata: async (parent: Parent, { version }: { version?: number | null }, context: ApiContext) => {
        const stored = version
          ? await loaders(context).reader.get(urnOf(parent), 'schemaMetadata', version)
          : await aspect(urnOf(parent), 'schemaMetadata', context);
        return stored ? schemaMetadata(stored, urnOf(parent)) : null;
      },
      editableSchemaMetadata: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'editableSchemaMetadata', context);
        if (!v) return null;
        return {
          editableSchemaFieldInfo: list(v.editableSchemaFieldInfo).map((f) => ({
            fieldPath: text(f.fieldPath) ?? '',
            description: text(f.description),
            tags: globalTags(f.globalTags, urnOf(parent)),
            glossaryTerms: glossaryTerms(f.glossaryTerms, urnOf(parent)),
          })),
        };
      },
      ...common,
    },
    Dashboard: {
      ...common,
      properties: async (parent: Parent, _args: unknown, context: ApiContext) =>
        infoProperties(await value(urnOf(parent), 'dashboardInfo', context), urnOf(parent)),
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) =>
        editable(await value(urnOf(parent), 'editableDashboardProperties', context)),
    },
    Chart: {
      ...common,
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'chartInfo', context);
        return v ? { ...infoProperties(v, urnOf(parent)), type: text(v.type) } : null;
      },
      query: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'chartQuery', context);
        return v ? { rawQuery: text(v.rawQuery) ?? '', type: text(v.type) ?? '' } : null;
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) =>
        editable(await value(urnOf(parent), 'editableChartProperties', context)),
    },
    DataFlow: {
      ...common,
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'dataFlowInfo', context);
        return v ? { ...infoProperties(v, urnOf(parent)), project: text(v.project) } : null;
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) =>
        editable(await value(urnOf(parent), 'editableDataFlowProperties', context)),
    },
    DataJob: {
      ...common,
      properties: async (parent: Parent, _args: unknown, context: ApiContext) =>
        infoProperties(await value(urnOf(parent), 'dataJobInfo', context), urnOf(parent)),
      inputOutput: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'dataJobInputOutput', context);
        const datasets = (field: string) =>
          Array.isArray(v?.[field]) ? (v[field] as unknown[]).filter((u): u is string => typeof u === 'string').map(datasetObject) : null;
        return v ? { inputDatasets: datasets('inputDatasets'), outputDatasets: datasets('outputDatasets') } : null;
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) =>
        editable(await value(urnOf(parent), 'editableDataJobProperties', context)),
    },
    DataPlatform: {
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'dataPlatformInfo', context);
        return v
          ? {
              type: text(v.type),
              displayName: text(v.displayName),
              datasetNameDelimiter: text(v.datasetNameDelimiter),
              logoUrl: text(v.logoUrl),
            }
          : null;
      },
    },
    TagAssociation: {
      // The tag as the tags' face answers it; a tag without an entity still shows its urn and id. A selection of
      // nothing but what the urn says needs no read.
      tag: async (parent, _args, context, info) =>
        (asksOnlyKey(info) || !parent.tag ? undefined : await loaders(context).entity('TAG', parent.tag.urn)) ?? parent.tag!,
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
