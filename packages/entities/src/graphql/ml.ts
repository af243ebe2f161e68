import { browsePathsField } from './browse';
import { COMMON_RULES } from './common';
import { refWithKey } from './common-fields';
import { isJsonObject, parseUrn } from '@mds/core';
import type { EntityParent, Resolvers } from '@mds/schema';
import { commonFields, type Loaders } from './common-fields';
import type { Json, TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping, type EntityScope } from './mapping/declare';
import { rootQuery } from './root-queries';

/** A value of a PDL union of primitives (`{ "string": "x" }`) as the GraphQL union member `box` holding it in `field`. */
function boxed(value: unknown, members: Readonly<Record<string, readonly [box: string, field: string]>>): Json | undefined {
  if (!isJsonObject(value)) return undefined;
  for (const [kind, [box, field]] of Object.entries(members)) {
    // A member named with a dotted key is what toGraphQL unwraps into that member of the GraphQL union.
    if (kind in value) return { [`mds.${box}`]: { [field]: value[kind] } };
  }
  return undefined;
}

/** The name in a urn's key when the properties aspect has none (DataHub's mappers backfill it the same way). */
const nameInKey = (v: Json, scope: { urn: string }) => v.name ?? parseUrn(scope.urn).parts[1];
/** Both lists of jobs, always an object (DataHub's mappers set it even when neither is stored). */
const lineageInfo = (v: Json) => ({ trainingJobs: v.trainingJobs, downstreamJobs: v.downstreamJobs });
/** A PDL map field with a `{}` default: DataHub's mappers answer an empty list when it is absent. */
const customProperties = (v: Json) => v.customProperties ?? {};

/** How the ML aspects' records differ from their GraphQL types (DataHub's ML property mappers). */
export const ML_RULES: TypeRules = {
  MLModelProperties: {
    name: nameInKey,
    version: (v) => (isJsonObject(v.version) ? v.version.versionTag : undefined),
    // DataHub's mapper never fills it from the stored aspect.
    hyperParameters: () => undefined,
    customProperties,
    mlModelLineageInfo: lineageInfo,
  },
  MLModelGroupProperties: { name: nameInKey, customProperties, mlModelLineageInfo: lineageInfo },
  MLFeatureProperties: { customProperties },
  MLPrimaryKeyProperties: { customProperties },
  QuantitativeAnalyses: {
    unitaryResults: (v) => boxed(v.unitaryResults, { string: ['StringBox', 'stringValue'] }),
    intersectionalResults: (v) => boxed(v.intersectionalResults, { string: ['StringBox', 'stringValue'] }),
  },
  HyperParameterMap: {
    value: (v) =>
      boxed(v.value, {
        string: ['StringBox', 'stringValue'],
        boolean: ['BooleanBox', 'booleanValue'],
        int: ['IntBox', 'intValue'],
        double: ['FloatBox', 'floatValue'],
        float: ['FloatBox', 'floatValue'],
      }),
  },
  Cost: { costValue: 'cost' },
};

/** The fields each ML entity type answers from the common aspects, as the other entity types answer them. */
const SHARED = ['ownership', 'tags', 'glossaryTerms', 'deprecation', 'status', 'domain', 'exists', 'lastIngested', 'aspects'];
const COMMON_OF: Readonly<Record<string, readonly string[]>> = {
  mlModel: [...SHARED, 'globalTags', 'institutionalMemory'],
  mlModelGroup: SHARED,
  mlFeature: [...SHARED, 'institutionalMemory'],
  mlFeatureTable: [...SHARED, 'institutionalMemory'],
  mlPrimaryKey: [...SHARED, 'institutionalMemory'],
};
/** The ML entity types whose key names a platform. */
const WITH_PLATFORM = new Set(['mlModel', 'mlModelGroup', 'mlFeatureTable']);

const part = (index: number) => (entity: EntityScope) => entity.parts[index];
const propertyOf = (aspect: string, field: string) => (entity: EntityScope) => entity.value(aspect)?.[field];
/** A field of a properties aspect, with the aspect as `properties` (and its older name). */
const propertiesFields = (aspect: string, older?: string) => ({
  properties: aspect,
  ...(older ? { [older]: aspect } : {}),
  description: propertyOf(aspect, 'description'),
});
const listIn = (aspect: string, field: string) => (entity: EntityScope) => entity.value(aspect)?.[field];

/** The five ML entity types, declared from their aspects (DataHub's MLModelMapper, MLModelGroupMapper, …). */
export const ML_MAPPINGS: readonly EntityMapping[] = [
  {
    entity: 'mlModel',
    fields: {
      name: part(1),
      origin: part(2),
      ...propertiesFields('mlModelProperties'),
      editableProperties: 'editableMlModelProperties',
      dataPlatformInstance: 'dataPlatformInstance',
      browsePathV2: 'browsePathsV2',
      browsePaths: browsePathsField,
      intendedUse: 'intendedUse',
      factorPrompts: 'mlModelFactorPrompts',
      metrics: 'mlModelMetrics',
      evaluationData: listIn('mlModelEvaluationData', 'evaluationData'),
      trainingData: listIn('mlModelTrainingData', 'trainingData'),
      quantitativeAnalyses: 'mlModelQuantitativeAnalyses',
      ethicalConsiderations: 'mlModelEthicalConsiderations',
      caveatsAndRecommendations: 'mlModelCaveatsAndRecommendations',
      sourceCode: 'sourceCode',
      cost: 'cost',
    },
  },
  {
    entity: 'mlModelGroup',
    fields: {
      name: part(1),
      origin: part(2),
      ...propertiesFields('mlModelGroupProperties'),
      editableProperties: 'editableMlModelGroupProperties',
      dataPlatformInstance: 'dataPlatformInstance',
      browsePathV2: 'browsePathsV2',
      browsePaths: browsePathsField,
    },
  },
  {
    entity: 'mlFeature',
    fields: {
      featureNamespace: part(0),
      name: part(1),
      ...propertiesFields('mlFeatureProperties', 'featureProperties'),
      dataType: propertyOf('mlFeatureProperties', 'dataType'),
      editableProperties: 'editableMlFeatureProperties',
      dataPlatformInstance: 'dataPlatformInstance',
      browsePathV2: 'browsePathsV2',
    },
  },
  {
    entity: 'mlFeatureTable',
    fields: {
      name: part(1),
      ...propertiesFields('mlFeatureTableProperties', 'featureTableProperties'),
      editableProperties: 'editableMlFeatureTableProperties',
      dataPlatformInstance: 'dataPlatformInstance',
      browsePathV2: 'browsePathsV2',
      browsePaths: browsePathsField,
    },
  },
  {
    entity: 'mlPrimaryKey',
    fields: {
      featureNamespace: part(0),
      name: part(1),
      ...propertiesFields('mlPrimaryKeyProperties', 'primaryKeyProperties'),
      dataType: propertyOf('mlPrimaryKeyProperties', 'dataType'),
      editableProperties: 'editableMlPrimaryKeyProperties',
      dataPlatformInstance: 'dataPlatformInstance',
    },
  },
];

/** The ML entity types' resolvers and their root queries (`mlModel(urn:)`, …: null when the urn's entity is not stored). */
export function mlResolvers(loaders: Loaders): Resolvers {
  const common = commonFields(loaders) as Record<string, unknown>;
  // The platform with its name, as the other entity types answer it (until DataPlatform reads its name from its urn).
  const platform = (parent: EntityParent) => refWithKey(parseUrn(parent.urn).parts[0]!) as EntityParent;
  const mappings = ML_MAPPINGS.map((mapping) => ({
    ...mapping,
    resolvers: {
      ...Object.fromEntries(COMMON_OF[mapping.entity]!.map((field) => [field, common[field]])),
      ...(WITH_PLATFORM.has(mapping.entity) ? { platform } : {}),
    },
  }));
  const root = (entity: string) => rootQuery(loaders, entity);
  return {
    ...entityTypeResolvers(loaders, mappings, { rules: { ...COMMON_RULES, ...ML_RULES }, ref: refWithKey }),
    Query: {
      mlModel: root('mlModel'),
      mlModelGroup: root('mlModelGroup'),
      mlFeature: root('mlFeature'),
      mlFeatureTable: root('mlFeatureTable'),
      mlPrimaryKey: root('mlPrimaryKey'),
    },
  };
}
