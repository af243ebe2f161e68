import { describe, expect, it } from 'vitest';
import {
  ENTITY_SPECS,
  UrnError,
  aspectOfClass,
  aspectSpec,
  entityAspect,
  entityOfSnapshotClass,
  findEntity,
  findEntityOfUrn,
  keyAspectValue,
  parseEntityUrn,
  parseUrn,
  timeseriesAspectsOf,
  urnFromKeyAspect,
  urnTypeOf,
} from '../src/index';

// DataHub's entity registry at c731e725 (metadata-models/src/main/resources/entity-registry.yml), read by hand: its
// entity types in order, and its aspects by kind (`"type": "timeseries"` in the PDL record's @Aspect).
// prettier-ignore
const DATAHUB_ENTITY_TYPES = [
  'dataPlatform', 'role', 'dataset', 'dataHubPolicy', 'dataJob', 'dataFlow', 'dataProcess', 'dataProcessInstance', 'chart', 'dashboard',
  'notebook', 'corpuser', 'corpGroup', 'domain', 'container', 'tag', 'glossaryTerm', 'glossaryNode', 'dataHubIngestionSource',
  'dataHubSecret', 'dataHubExecutionRequest', 'assertion', 'dataHubRetention', 'dataPlatformInstance', 'mlModel', 'mlModelGroup',
  'mlModelDeployment', 'mlFeatureTable', 'mlFeature', 'mlPrimaryKey', 'telemetry', 'dataHubAccessToken', 'test', 'dataHubUpgrade',
  'inviteToken', 'schemaField', 'globalSettings', 'versionSet', 'incident', 'dataHubRole', 'post', 'dataHubStepState', 'dataHubView',
  'erModelRelationship', 'query', 'dataProduct', 'application', 'ownershipType', 'businessAttribute', 'dataContract', 'dataHubPersona',
  'dataHubAction', 'entityType', 'dataType', 'structuredProperty', 'form', 'dataHubPageTemplate', 'dataHubPageModule',
  'dataHubConnection', 'platformResource', 'dataHubOpenAPISchema',
];
// prettier-ignore
const DATAHUB_VERSIONED_ASPECTS = [
  'access', 'actors', 'applicationProperties', 'applications', 'assertionActions', 'assertionInfo', 'assetSettings', 'browsePaths',
  'browsePathsV2', 'businessAttributeInfo', 'businessAttributes', 'chartInfo', 'chartQuery', 'container', 'containerProperties',
  'corpGroupEditableInfo', 'corpGroupInfo', 'corpUserCredentials', 'corpUserEditableInfo', 'corpUserInfo', 'corpUserSettings',
  'corpUserStatus', 'cost', 'dashboardInfo', 'dataContractProperties', 'dataContractStatus', 'dataFlowInfo', 'dataHubAccessTokenInfo',
  'dataHubConnectionDetails', 'dataHubExecutionRequestInput', 'dataHubExecutionRequestResult', 'dataHubExecutionRequestSignal',
  'dataHubIngestionSourceInfo', 'dataHubPageModuleProperties', 'dataHubPageTemplateProperties', 'dataHubPersonaInfo',
  'dataHubPolicyInfo', 'dataHubRetentionConfig', 'dataHubRoleInfo', 'dataHubSecretValue', 'dataHubStepStateProperties',
  'dataHubUpgradeRequest', 'dataHubUpgradeResult', 'dataHubViewInfo', 'dataJobInfo', 'dataJobInputOutput', 'dataPlatformInfo',
  'dataPlatformInstance', 'dataPlatformInstanceProperties', 'dataProcessInfo', 'dataProcessInstanceInput', 'dataProcessInstanceOutput',
  'dataProcessInstanceProperties', 'dataProcessInstanceRelationships', 'dataProductProperties', 'dataTransformLogic', 'dataTypeInfo',
  'datasetDeprecation', 'datasetProperties', 'datasetUpstreamLineage', 'deprecation', 'displayProperties', 'documentation',
  'domainProperties', 'domains', 'dynamicFormAssignment', 'editableChartProperties', 'editableContainerProperties',
  'editableDashboardProperties', 'editableDataFlowProperties', 'editableDataJobProperties', 'editableDatasetProperties',
  'editableERModelRelationshipProperties', 'editableMlFeatureProperties', 'editableMlFeatureTableProperties',
  'editableMlModelGroupProperties', 'editableMlModelProperties', 'editableMlPrimaryKeyProperties', 'editableNotebookProperties',
  'editableSchemaMetadata', 'embed', 'entityTypeInfo', 'erModelRelationshipProperties', 'formInfo', 'forms', 'globalSettingsInfo',
  'globalTags', 'glossaryNodeInfo', 'glossaryRelatedTerms', 'glossaryTermInfo', 'glossaryTerms', 'groupMembership', 'icebergCatalogInfo',
  'icebergWarehouseInfo', 'incidentInfo', 'incidentsSummary', 'inputFields', 'institutionalMemory', 'intendedUse', 'inviteToken',
  'logicalParent', 'mlFeatureProperties', 'mlFeatureTableProperties', 'mlModelCaveatsAndRecommendations', 'mlModelDeploymentProperties',
  'mlModelEthicalConsiderations', 'mlModelEvaluationData', 'mlModelFactorPrompts', 'mlModelGroupProperties', 'mlModelMetrics',
  'mlModelProperties', 'mlModelQuantitativeAnalyses', 'mlModelTrainingData', 'mlPrimaryKeyProperties', 'mlTrainingRunProperties',
  'nativeGroupMembership', 'notebookContent', 'notebookInfo', 'origin', 'ownership', 'ownershipTypeInfo', 'partitionsSummary',
  'platformResourceInfo', 'postInfo', 'propertyDefinition', 'queryProperties', 'querySubjects', 'roleMembership', 'roleProperties',
  'schemaFieldAliases', 'schemaMetadata', 'schemafieldInfo', 'siblings', 'slackUserInfo', 'sourceCode', 'status', 'structuredProperties',
  'structuredPropertySettings', 'subTypes', 'systemMetadata', 'tagProperties', 'telemetryClientId', 'testInfo', 'testResults',
  'upstreamLineage', 'versionInfo', 'versionProperties', 'versionSetProperties', 'viewProperties',
];
// prettier-ignore
const DATAHUB_TIMESERIES_ASPECTS = [
  'assertionRunEvent', 'chartUsageStatistics', 'dashboardUsageStatistics', 'dataProcessInstanceRunEvent', 'datahubIngestionCheckpoint',
  'datahubIngestionRunSummary', 'datasetProfile', 'datasetUsageStatistics', 'operation', 'queryUsageStatistics',
];

// The example URN of each entity type of entities-api §4.2, and the key aspect DataHub builds from it.
const EXAMPLES: [string, string, Record<string, string>][] = [
  [
    'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
    'datasetKey',
    { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' },
  ],
  ['urn:li:dashboard:(looker,dashboards.11)', 'dashboardKey', { dashboardTool: 'looker', dashboardId: 'dashboards.11' }],
  ['urn:li:chart:(looker,dashboard_elements.2)', 'chartKey', { dashboardTool: 'looker', chartId: 'dashboard_elements.2' }],
  ['urn:li:dataFlow:(airflow,daily_etl,prod)', 'dataFlowKey', { orchestrator: 'airflow', flowId: 'daily_etl', cluster: 'prod' }],
  [
    'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_etl,prod),load_orders)',
    'dataJobKey',
    { flow: 'urn:li:dataFlow:(airflow,daily_etl,prod)', jobId: 'load_orders' },
  ],
  ['urn:li:container:b41c14bc5cb3ccfbb0433c8cbdef2992', 'containerKey', { guid: 'b41c14bc5cb3ccfbb0433c8cbdef2992' }],
  ['urn:li:tag:pii', 'tagKey', { name: 'pii' }],
  ['urn:li:corpuser:jdoe', 'corpUserKey', { username: 'jdoe' }],
  ['urn:li:corpGroup:data-eng', 'corpGroupKey', { name: 'data-eng' }],
  ['urn:li:dataPlatform:snowflake', 'dataPlatformKey', { platformName: 'snowflake' }],
  ['urn:li:domain:marketing', 'domainKey', { id: 'marketing' }],
];

describe('the entity registry', () => {
  it.each(EXAMPLES)('%s: key aspect %s built from the URN parts, and back', (text, keyAspect, key) => {
    const urn = parseUrn(text);
    const entity = findEntity(urn.entityType)!;
    expect(entity.keyAspect).toBe(keyAspect);
    expect(keyAspectValue(entity, urn)).toEqual(key);
    expect(urnFromKeyAspect(entity, key)).toBe(text);
    expect(entityAspect(entity, keyAspect)).toMatchObject({
      kind: 'key',
      pdlClass: `com.linkedin.metadata.key.${keyAspect[0]!.toUpperCase()}${keyAspect.slice(1)}`,
    });
  });

  it('knows the 61 entity types of DataHub’s registry, in its order', () => {
    expect(ENTITY_SPECS.map((e) => e.name)).toEqual(DATAHUB_ENTITY_TYPES);
  });

  it('knows the registry’s 159 aspects and the 61 key aspects, each with its kind', () => {
    const kinds = (names: readonly string[]) => names.map((name) => [name, aspectSpec(name)?.kind]);
    expect(kinds(DATAHUB_VERSIONED_ASPECTS)).toEqual(DATAHUB_VERSIONED_ASPECTS.map((name) => [name, 'versioned']));
    expect(kinds(DATAHUB_TIMESERIES_ASPECTS)).toEqual(DATAHUB_TIMESERIES_ASPECTS.map((name) => [name, 'timeseries']));
    const keys = ENTITY_SPECS.map((e) => e.keyAspect);
    expect(new Set(keys).size).toBe(61);
    expect(keys.map((k) => aspectSpec(k)?.kind)).toEqual(keys.map(() => 'key'));
    expect(keys).toContain('corpUserKey');
    const allowed = new Set(ENTITY_SPECS.flatMap((e) => e.aspects));
    expect(allowed.size).toBe(DATAHUB_VERSIONED_ASPECTS.length + DATAHUB_TIMESERIES_ASPECTS.length + 61);
  });

  it('gives each entity type GraphQL’s EntityType as DataHub maps it (OTHER where it maps none)', () => {
    const graphql = Object.fromEntries(ENTITY_SPECS.map((e) => [e.name, e.graphqlType]));
    expect(graphql).toMatchObject({
      dataset: 'DATASET',
      corpuser: 'CORP_USER',
      corpGroup: 'CORP_GROUP',
      dataFlow: 'DATA_FLOW',
      mlModel: 'MLMODEL',
      mlModelGroup: 'MLMODEL_GROUP',
      notebook: 'NOTEBOOK',
      dataHubPolicy: 'DATAHUB_POLICY',
      ownershipType: 'CUSTOM_OWNERSHIP_TYPE',
      dataHubIngestionSource: 'INGESTION_SOURCE',
      dataHubAccessToken: 'ACCESS_TOKEN',
      versionSet: 'VERSION_SET',
      dataHubConnection: 'DATAHUB_CONNECTION',
      dataHubPageModule: 'DATAHUB_PAGE_MODULE',
      mlModelDeployment: 'OTHER',
      dataProcess: 'OTHER',
      telemetry: 'OTHER',
    });
  });

  it('binds URN parts to the key fields in the key record’s order', () => {
    const keyFields = (name: string) => findEntity(name)!.keyFields;
    expect(keyFields('dataset')).toEqual(['platform', 'name', 'origin']);
    expect(keyFields('dataProcess')).toEqual(['name', 'orchestrator', 'origin']);
    expect(keyFields('schemaField')).toEqual(['parent', 'fieldPath']);
    expect(keyFields('dataHubRetention')).toEqual(['entityName', 'aspectName']);
    expect(keyFields('versionSet')).toEqual(['id', 'entityType']);
    expect(keyAspectValue(findEntity('mlModelGroup')!, parseUrn('urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)'))).toEqual({
      platform: 'urn:li:dataPlatform:mlflow',
      name: 'churn',
      origin: 'PROD',
    });
  });

  it('knows which entity types MCE snapshots carry, and the aspects each snapshot admits', () => {
    const snapshots = ENTITY_SPECS.filter((e) => e.snapshotClass).map((e) => e.name);
    expect(snapshots.sort()).toEqual(
      [
        'chart',
        'corpGroup',
        'corpuser',
        'dashboard',
        'dataFlow',
        'dataHubPolicy',
        'dataHubRetention',
        'dataJob',
        'dataPlatform',
        'dataProcess',
        'dataset',
        'glossaryNode',
        'glossaryTerm',
        'mlFeature',
        'mlFeatureTable',
        'mlModel',
        'mlModelDeployment',
        'mlModelGroup',
        'mlPrimaryKey',
        'schemaField',
        'tag',
      ].sort(),
    );
    const corpGroup = findEntity('corpGroup')!;
    expect(corpGroup.snapshotAspects).toEqual(['corpGroupKey', 'corpGroupInfo', 'globalTags', 'status']);
    expect(corpGroup.aspects).toContain('ownership');
  });

  it('finds an entity type whatever its case, and nothing for an unknown one', () => {
    expect(findEntity('DATASET')?.name).toBe('dataset');
    expect(findEntity('CorpUser')?.name).toBe('corpuser');
    expect(findEntity('MLMODEL')?.name).toBe('mlModel');
    expect(findEntity('spaceship')).toBeUndefined();
  });

  it('refuses a URN whose part count does not match the key, with DataHub’s text', () => {
    expect(() => keyAspectValue(findEntity('dataset')!, parseUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.orders)'))).toThrow(
      new UrnError('Failed to convert urn to entity key: urns parts and key fields do not have same length'),
    );
    expect(() => urnFromKeyAspect(findEntity('dataset')!, { platform: 'urn:li:dataPlatform:hive', name: 'x' })).toThrow(
      'Key aspect datasetKey lacks origin',
    );
  });

  it('finds the entity type of a urn, and none for malformed text or a type it lacks', () => {
    expect(findEntityOfUrn('urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)')?.name).toBe('dataset');
    expect(findEntityOfUrn('urn:li:spaceship:x')).toBeUndefined();
    expect(findEntityOfUrn('not a urn')).toBeUndefined();
    expect(urnTypeOf('urn:li:TAG:x')).toBe('TAG');
    expect(urnTypeOf('urn:li:tag:')).toBeUndefined();
  });

  it('refuses a data job whose flow is not a data flow urn (its key’s @Relationship), and a feature table’s platform not a platform', () => {
    expect(() => keyAspectValue(findEntity('dataJob')!, parseUrn('urn:li:dataJob:(a,b)'))).toThrow(
      new UrnError("Invalid urn: urn:li:dataJob:(a,b)\n Cause: its flow must be a dataFlow urn, not 'a'"),
    );
    expect(keyAspectValue(findEntity('dataJob')!, parseUrn('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)'))).toEqual({
      flow: 'urn:li:dataFlow:(airflow,dag,PROD)',
      jobId: 'task',
    });
    expect(() => keyAspectValue(findEntity('mlFeatureTable')!, parseUrn('urn:li:mlFeatureTable:(urn:li:tag:x,t)'))).toThrow(
      new UrnError(
        "Invalid urn: urn:li:mlFeatureTable:(urn:li:tag:x,t)\n Cause: its platform must be a dataPlatform urn, not 'urn:li:tag:x'",
      ),
    );
  });

  it('parseEntityUrn refuses a urn whose key does not bind every time, even once its text parsed as a urn', () => {
    const text = 'urn:li:dataJob:(a,b)';
    expect(parseUrn(text).parts).toEqual(['a', 'b']);
    for (let i = 0; i < 2; i++)
      expect(() => parseEntityUrn(text)).toThrow(new UrnError(`Invalid urn: ${text}\n Cause: its flow must be a dataFlow urn, not 'a'`));
    const good = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)';
    for (let i = 0; i < 2; i++) expect(parseEntityUrn(good).parts).toEqual(['urn:li:dataFlow:(airflow,dag,PROD)', 'task']);
  });

  it('allows an aspect only on the entities that list it, and tells versioned from time-series', () => {
    const dataset = findEntity('dataset')!;
    expect(entityAspect(dataset, 'schemaMetadata')).toEqual({
      name: 'schemaMetadata',
      kind: 'versioned',
      pdlClass: 'com.linkedin.schema.SchemaMetadata',
      autoRender: false,
    });
    expect(entityAspect(dataset, 'datasetProfile')?.kind).toBe('timeseries');
    expect(entityAspect(dataset, 'dashboardInfo')).toBeUndefined();
    expect(entityAspect(findEntity('tag')!, 'tagProperties')?.pdlClass).toBe('com.linkedin.tag.TagProperties');
    expect(aspectSpec('nope')).toBeUndefined();
  });

  it('lists the time-series aspects the time-series store indexes', () => {
    expect(Object.fromEntries(ENTITY_SPECS.map((e) => [e.name, timeseriesAspectsOf(e)]).filter(([, a]) => a!.length))).toEqual({
      dataset: ['datasetProfile', 'datasetUsageStatistics', 'operation'],
      dashboard: ['dashboardUsageStatistics'],
      chart: ['chartUsageStatistics'],
      dataJob: ['datahubIngestionRunSummary', 'datahubIngestionCheckpoint'],
      assertion: ['assertionRunEvent'],
      dataProcessInstance: ['dataProcessInstanceRunEvent'],
      query: ['queryUsageStatistics'],
    });
  });

  it('reads aspect and snapshot class names in Pegasus and in Avro (pegasus2avro) spelling', () => {
    expect(aspectOfClass('com.linkedin.common.Ownership')?.name).toBe('ownership');
    expect(aspectOfClass('com.linkedin.pegasus2avro.dataset.DatasetProperties')?.name).toBe('datasetProperties');
    expect(aspectOfClass('com.linkedin.metadata.key.DatasetKey')?.kind).toBe('key');
    expect(entityOfSnapshotClass('com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot')?.name).toBe('dataset');
    expect(entityOfSnapshotClass('com.linkedin.metadata.snapshot.CorpUserSnapshot')?.name).toBe('corpuser');
    expect(entityOfSnapshotClass('com.linkedin.metadata.snapshot.ContainerSnapshot')).toBeUndefined();
    expect(entityOfSnapshotClass('com.linkedin.metadata.snapshot.MLModelDeploymentSnapshot')?.name).toBe('mlModelDeployment');
    expect(aspectOfClass('com.linkedin.pegasus2avro.query.QueryProperties')?.name).toBe('queryProperties');
  });
});
