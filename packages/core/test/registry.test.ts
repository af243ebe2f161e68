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
  parseUrn,
  timeseriesAspectsOf,
  urnFromKeyAspect,
  urnTypeOf,
} from '../src/index';

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

  it('knows the 11 entity types of the spec, those of DataHub’s sample files, and the three first known for time-series', () => {
    expect(ENTITY_SPECS.map((e) => `${e.name}:${e.graphqlType}`)).toEqual([
      'dataset:DATASET',
      'dashboard:DASHBOARD',
      'chart:CHART',
      'dataFlow:DATA_FLOW',
      'dataJob:DATA_JOB',
      'container:CONTAINER',
      'tag:TAG',
      'corpuser:CORP_USER',
      'corpGroup:CORP_GROUP',
      'dataPlatform:DATA_PLATFORM',
      'domain:DOMAIN',
      'glossaryTerm:GLOSSARY_TERM',
      'glossaryNode:GLOSSARY_NODE',
      'mlModel:MLMODEL',
      'mlFeature:MLFEATURE',
      'mlPrimaryKey:MLPRIMARY_KEY',
      'mlFeatureTable:MLFEATURE_TABLE',
      'test:TEST',
      'assertion:ASSERTION',
      'dataProcessInstance:DATA_PROCESS_INSTANCE',
      'query:QUERY',
    ]);
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

  it('refuses a data job whose flow is not a data flow urn', () => {
    expect(() => keyAspectValue(findEntity('dataJob')!, parseUrn('urn:li:dataJob:(a,b)'))).toThrow(
      new UrnError("Invalid urn: urn:li:dataJob:(a,b)\n Cause: its flow must be a dataFlow urn, not 'a'"),
    );
    expect(keyAspectValue(findEntity('dataJob')!, parseUrn('urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)'))).toEqual({
      flow: 'urn:li:dataFlow:(airflow,dag,PROD)',
      jobId: 'task',
    });
  });

  it('allows an aspect only on the entities that list it, and tells versioned from time-series', () => {
    const dataset = findEntity('dataset')!;
    expect(entityAspect(dataset, 'schemaMetadata')).toEqual({
      name: 'schemaMetadata',
      kind: 'versioned',
      pdlClass: 'com.linkedin.schema.SchemaMetadata',
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
  });
});
