import { NON_KEY_ASPECTS, type AspectSpec } from './aspects';
import { UrnError, makeUrn, urnTypeOf, type Urn } from './urn';

export interface EntitySpec {
  /** The registry name, as in URNs and MCPs: `dataset`, `corpuser`, `corpGroup`, `dataPlatform`, … */
  readonly name: string;
  /** GraphQL's `EntityType`: `DATASET`, `CORP_USER`, … */
  readonly graphqlType: string;
  readonly keyAspect: string;
  /** The key aspect's fields, bound positionally to the URN's parts (EntityKeyUtils). */
  readonly keyFields: readonly string[];
  /** `com.linkedin.metadata.snapshot.<X>Snapshot`, for the entities MCEs carry. */
  readonly snapshotClass?: string;
  /** Every aspect the entity allows: its key, then versioned, then time-series. */
  readonly aspects: readonly string[];
}

const COMMON = [
  'ownership',
  'status',
  'globalTags',
  'glossaryTerms',
  'domains',
  'deprecation',
  'subTypes',
  'browsePaths',
  'browsePathsV2',
  'dataPlatformInstance',
  'institutionalMemory',
];

/** entity name, GraphQL type, key fields, snapshot (for MCEs), its aspects beyond the key. */
const ENTITIES: [string, string, string[], boolean, string[]][] = [
  [
    'dataset',
    'DATASET',
    ['platform', 'name', 'origin'],
    true,
    [
      'datasetProperties',
      'editableDatasetProperties',
      'schemaMetadata',
      'editableSchemaMetadata',
      ...COMMON,
      'container',
      'upstreamLineage',
      'siblings',
      'viewProperties',
      'embed',
      'testResults',
      'datasetProfile',
      'datasetUsageStatistics',
      'operation',
    ],
  ],
  [
    'dashboard',
    'DASHBOARD',
    ['dashboardTool', 'dashboardId'],
    true,
    ['dashboardInfo', 'editableDashboardProperties', ...COMMON, 'container', 'inputFields', 'embed', 'dashboardUsageStatistics'],
  ],
  [
    'chart',
    'CHART',
    ['dashboardTool', 'chartId'],
    true,
    ['chartInfo', 'editableChartProperties', 'chartQuery', ...COMMON, 'container', 'inputFields', 'embed', 'chartUsageStatistics'],
  ],
  [
    'dataFlow',
    'DATA_FLOW',
    ['orchestrator', 'flowId', 'cluster'],
    true,
    ['dataFlowInfo', 'editableDataFlowProperties', ...COMMON, 'versionInfo'],
  ],
  [
    'dataJob',
    'DATA_JOB',
    ['flow', 'jobId'],
    true,
    [
      'dataJobInfo',
      'dataJobInputOutput',
      'editableDataJobProperties',
      ...COMMON,
      'versionInfo',
      'datahubIngestionRunSummary',
      'datahubIngestionCheckpoint',
    ],
  ],
  [
    'container',
    'CONTAINER',
    ['guid'],
    false,
    [
      'containerProperties',
      'editableContainerProperties',
      'dataPlatformInstance',
      'subTypes',
      'ownership',
      'container',
      'globalTags',
      'glossaryTerms',
      'institutionalMemory',
      'browsePaths',
      'browsePathsV2',
      'status',
      'domains',
    ],
  ],
  ['tag', 'TAG', ['name'], true, ['tagProperties', 'ownership', 'deprecation', 'status']],
  [
    'corpuser',
    'CORP_USER',
    ['username'],
    true,
    [
      'corpUserInfo',
      'corpUserEditableInfo',
      'corpUserStatus',
      'groupMembership',
      'nativeGroupMembership',
      'globalTags',
      'status',
      'origin',
      'roleMembership',
    ],
  ],
  [
    'corpGroup',
    'CORP_GROUP',
    ['name'],
    true,
    ['corpGroupInfo', 'corpGroupEditableInfo', 'globalTags', 'ownership', 'status', 'origin', 'roleMembership'],
  ],
  ['dataPlatform', 'DATA_PLATFORM', ['platformName'], true, ['dataPlatformInfo']],
  ['domain', 'DOMAIN', ['id'], true, ['domainProperties', 'ownership', 'institutionalMemory', 'structuredProperties', 'forms']],
  // Beyond entities-api §4.2: the entity types DataHub's own sample and golden files carry (bootstrap_mce.json,
  // glossary and fivetran goldens), with their aspects from entity-registry.yml.
  [
    'glossaryTerm',
    'GLOSSARY_TERM',
    ['name'],
    true,
    [
      'glossaryTermInfo',
      'glossaryRelatedTerms',
      'ownership',
      'status',
      'deprecation',
      'domains',
      'institutionalMemory',
      'browsePaths',
      'browsePathsV2',
      'structuredProperties',
      'forms',
    ],
  ],
  [
    'glossaryNode',
    'GLOSSARY_NODE',
    ['name'],
    true,
    ['glossaryNodeInfo', 'ownership', 'status', 'institutionalMemory', 'browsePathsV2', 'structuredProperties', 'forms'],
  ],
  [
    'mlModel',
    'MLMODEL',
    ['platform', 'name', 'origin'],
    true,
    [
      'mlModelProperties',
      'intendedUse',
      'mlModelFactorPrompts',
      'mlModelMetrics',
      'mlModelEvaluationData',
      'mlModelTrainingData',
      'mlModelQuantitativeAnalyses',
      'mlModelEthicalConsiderations',
      'mlModelCaveatsAndRecommendations',
      'sourceCode',
      'cost',
      ...COMMON,
    ],
  ],
  ['mlFeature', 'MLFEATURE', ['featureNamespace', 'name'], true, ['mlFeatureProperties', ...COMMON]],
  ['mlPrimaryKey', 'MLPRIMARY_KEY', ['featureNamespace', 'name'], true, ['mlPrimaryKeyProperties', ...COMMON]],
  ['mlFeatureTable', 'MLFEATURE_TABLE', ['platform', 'name'], true, ['mlFeatureTableProperties', ...COMMON]],
  ['test', 'TEST', ['id'], false, ['testInfo']],
  // Entity types mds first knew for their time-series aspects (reference-api §6).
  ['assertion', 'ASSERTION', ['assertionId'], false, ['assertionRunEvent']],
  [
    'dataProcessInstance',
    'DATA_PROCESS_INSTANCE',
    ['id'],
    false,
    [
      'dataProcessInstanceProperties',
      'dataProcessInstanceRelationships',
      'dataProcessInstanceInput',
      'dataProcessInstanceOutput',
      'dataProcessInstanceRunEvent',
    ],
  ],
  ['query', 'QUERY', ['id'], false, ['queryUsageStatistics']],
];

const upperFirst = (name: string) => name[0]!.toUpperCase() + name.slice(1);
/** DataHub's class names spell these two entity types differently from their registry names. */
const CLASS_STEM: Record<string, string> = {
  corpuser: 'CorpUser',
  mlModel: 'MLModel',
  mlFeature: 'MLFeature',
  mlPrimaryKey: 'MLPrimaryKey',
  mlFeatureTable: 'MLFeatureTable',
};
const classStem = (entity: string) => CLASS_STEM[entity] ?? upperFirst(entity);

export const ENTITY_SPECS: readonly EntitySpec[] = ENTITIES.map(([name, graphqlType, keyFields, snapshot, aspects]) => ({
  name,
  graphqlType,
  keyAspect: `${name === 'corpuser' ? 'corpUser' : name}Key`,
  keyFields,
  ...(snapshot ? { snapshotClass: `com.linkedin.metadata.snapshot.${classStem(name)}Snapshot` } : {}),
  aspects: [`${name === 'corpuser' ? 'corpUser' : name}Key`, ...aspects],
}));

const KEY_ASPECTS = new Map<string, AspectSpec>(
  ENTITY_SPECS.map((e) => [e.keyAspect, { name: e.keyAspect, kind: 'key', pdlClass: `com.linkedin.metadata.key.${classStem(e.name)}Key` }]),
);
const byLowerName = new Map(ENTITY_SPECS.map((e) => [e.name.toLowerCase(), e]));

/** The entity type by its registry name, matched case-insensitively (MCPs send `DATASET` or `dataset`). */
export function findEntity(name: string): EntitySpec | undefined {
  return byLowerName.get(name.toLowerCase());
}

/** The entity type of a urn, or undefined when the text is no valid urn or names a type the registry lacks. */
export function findEntityOfUrn(text: string): EntitySpec | undefined {
  const type = urnTypeOf(text);
  return type === undefined ? undefined : findEntity(type);
}

/** An aspect by its exact name, whichever entity it belongs to. */
export function aspectSpec(name: string): AspectSpec | undefined {
  return NON_KEY_ASPECTS.get(name) ?? KEY_ASPECTS.get(name);
}

/** The aspect, when `entity` allows it. */
export function entityAspect(entity: EntitySpec, aspectName: string): AspectSpec | undefined {
  return entity.aspects.includes(aspectName) ? aspectSpec(aspectName) : undefined;
}

/** The entity's time-series aspects, in registry order. */
export const timeseriesAspectsOf = (entity: EntitySpec): string[] => entity.aspects.filter((a) => aspectSpec(a)?.kind === 'timeseries');

/** The key aspect's value from the URN's parts (positional, as DataHub's EntityKeyUtils binds them). */
export function keyAspectValue(entity: EntitySpec, urn: Urn): Record<string, string> {
  if (urn.parts.length !== entity.keyFields.length) {
    throw new UrnError('Failed to convert urn to entity key: urns parts and key fields do not have same length');
  }
  for (const [field, type] of Object.entries(URN_KEY_PARTS[entity.name] ?? {})) {
    const part = urn.parts[entity.keyFields.indexOf(field)]!;
    if (urnTypeOf(part) !== type) throw new UrnError(`Invalid urn: ${urn.text}\n Cause: its ${field} must be a ${type} urn, not '${part}'`);
  }
  return Object.fromEntries(entity.keyFields.map((field, i) => [field, urn.parts[i]!]));
}

/** Key parts that are themselves urns of one type (DataHub's typed keys: a DataJobUrn's flow is a DataFlowUrn). */
const URN_KEY_PARTS: Readonly<Record<string, Readonly<Record<string, string>>>> = { dataJob: { flow: 'dataFlow' } };

/** The URN a key aspect value names (MCPs may send `entityKeyAspect` instead of `entityUrn`). */
export function urnFromKeyAspect(entity: EntitySpec, key: Record<string, unknown>): string {
  const parts = entity.keyFields.map((field) => key[field]);
  const missing = entity.keyFields.filter((_, i) => typeof parts[i] !== 'string' || parts[i] === '');
  if (missing.length) throw new UrnError(`Key aspect ${entity.keyAspect} lacks ${missing.join(', ')}`);
  return makeUrn(entity.name, parts as string[]);
}

const byClass = new Map([...NON_KEY_ASPECTS.values(), ...KEY_ASPECTS.values()].map((a) => [a.pdlClass, a]));
const bySnapshot = new Map(ENTITY_SPECS.flatMap((e) => (e.snapshotClass ? [[e.snapshotClass, e] as const] : [])));
/** Ingestion files write Avro's `com.linkedin.pegasus2avro.` for Pegasus's `com.linkedin.`. */
const pegasusName = (className: string) => className.replace('com.linkedin.pegasus2avro.', 'com.linkedin.');

/** The aspect a PDL class name wraps (`com.linkedin.common.Ownership`), in Pegasus or Avro spelling. */
export const aspectOfClass = (className: string): AspectSpec | undefined => byClass.get(pegasusName(className));

/** The entity of an MCE snapshot class (`com.linkedin.metadata.snapshot.DatasetSnapshot`). */
export const entityOfSnapshotClass = (className: string): EntitySpec | undefined => bySnapshot.get(pegasusName(className));
