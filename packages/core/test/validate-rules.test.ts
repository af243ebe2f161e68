import { describe, expect, it } from 'vitest';
import { validateAspect } from '../src/validate';

// One accepted and one refused value for each kind of rule DataHub's validation applies, on aspects of its model.

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const STAMP = { time: 0, actor: 'urn:li:corpuser:unknown' };
const usage = (extra: object) => ({ timestampMillis: 1_700_000_000_000, ...extra });

describe('primitive types', () => {
  it('string, boolean', () => {
    expect(validateAspect('tagProperties', { name: 'pii', description: 'Personal data' })).toEqual([]);
    expect(validateAspect('tagProperties', { name: 5 })).toEqual(['ERROR :: /name :: 5 is not backed by a string']);
    expect(validateAspect('status', { removed: true })).toEqual([]);
    expect(validateAspect('status', { removed: 'false' })).toEqual(['ERROR :: /removed :: "false" is not backed by a boolean']);
  });

  it('int: integral and within 32 bits', () => {
    expect(validateAspect('chartUsageStatistics', usage({ viewsCount: 2_147_483_647 }))).toEqual([]);
    expect(validateAspect('chartUsageStatistics', usage({ viewsCount: 2_147_483_648 }))).toEqual([
      'ERROR :: /viewsCount :: 2147483648 is out of the range of an int',
    ]);
    expect(validateAspect('chartUsageStatistics', usage({ viewsCount: 1.5 }))).toEqual([
      'ERROR :: /viewsCount :: 1.5 is not backed by an int',
    ]);
  });

  it('long: integral and within 64 bits', () => {
    expect(validateAspect('chartUsageStatistics', usage({ timestampMillis: -(2 ** 62) }))).toEqual([]);
    expect(validateAspect('chartUsageStatistics', { timestampMillis: 2 ** 63 })).toEqual([
      'ERROR :: /timestampMillis :: 9223372036854776000 is out of the range of a long',
    ]);
    expect(validateAspect('chartUsageStatistics', { timestampMillis: '1700000000000' })).toEqual([
      'ERROR :: /timestampMillis :: "1700000000000" is not backed by a long',
    ]);
  });

  it('float and double: finite, a float within its range', () => {
    const profile = (fieldProfiles: object[]) => ({ timestampMillis: 1, rowCount: 3, fieldProfiles });
    expect(validateAspect('datasetProfile', profile([{ fieldPath: 'id', nullProportion: 0.25 }]))).toEqual([]);
    expect(validateAspect('datasetProfile', profile([{ fieldPath: 'id', nullProportion: 1e39 }]))).toEqual([
      'ERROR :: /fieldProfiles/0/nullProportion :: 1e+39 is out of the range of a float',
    ]);
    expect(validateAspect('queryUsageStatistics', usage({ queryCost: 1e300 }))).toEqual([]);
    expect(validateAspect('queryUsageStatistics', usage({ queryCost: 'cheap' }))).toEqual([
      'ERROR :: /queryCost :: "cheap" is not backed by a double',
    ]);
  });

  it('non-finite numbers are refused for every numeric type', () => {
    expect(validateAspect('queryUsageStatistics', usage({ queryCost: Number.POSITIVE_INFINITY, queryCount: Number.NaN }))).toEqual([
      'ERROR :: /queryCount :: NaN is not a finite number',
      'ERROR :: /queryCost :: Infinity is not a finite number',
    ]);
    expect(validateAspect('datasetProfile', { timestampMillis: Number.NEGATIVE_INFINITY })).toEqual([
      'ERROR :: /timestampMillis :: -Infinity is not a finite number',
    ]);
  });

  it('bytes: a string of code points 0-255, as Pegasus JSON writes bytes', () => {
    const checkpoint = (payload: unknown) => ({
      timestampMillis: 1,
      runId: 'r1',
      pipelineName: 'p',
      platformInstanceId: 'i',
      config: '',
      state: { formatVersion: '1', serde: 'utf-8', payload },
    });
    expect(validateAspect('datahubIngestionCheckpoint', checkpoint('\u0000\u00ffabc'))).toEqual([]);
    expect(validateAspect('datahubIngestionCheckpoint', checkpoint('\u0100'))).toEqual([
      'ERROR :: /state/payload :: "Ā" is not a valid string representation of bytes',
    ]);
  });
});

describe('records', () => {
  it('required fields: present, or refused as missing; null is a wrong value for one', () => {
    expect(validateAspect('subTypes', { typeNames: [] })).toEqual([]);
    expect(validateAspect('subTypes', {})).toEqual(['ERROR :: /typeNames :: field is required but not found and has no default value']);
    expect(validateAspect('subTypes', { typeNames: null })).toEqual(['ERROR :: /typeNames :: null is not backed by an array']);
  });

  it('fields with a default may be absent (the value is stored as sent), and are typed when present', () => {
    // SchemaField.nullable / recursive / isPartOfKey default to false; FineGrainedLineage.confidenceScore to 1.0.
    const lineage = (extra: object) => ({
      upstreams: [],
      fineGrainedLineages: [{ upstreamType: 'FIELD_SET', downstreamType: 'FIELD', ...extra }],
    });
    expect(validateAspect('upstreamLineage', lineage({}))).toEqual([]);
    expect(validateAspect('upstreamLineage', lineage({ confidenceScore: null }))).toEqual([]);
    expect(validateAspect('upstreamLineage', lineage({ confidenceScore: 'high' }))).toEqual([
      'ERROR :: /fineGrainedLineages/0/confidenceScore :: "high" is not backed by a float',
    ]);
  });

  it('nested records are checked at their paths; unknown fields are kept', () => {
    const owner = (source: unknown) => ({ owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER', source }] });
    expect(validateAspect('ownership', owner({ type: 'MANUAL', url: 'https://x', note: 'kept' }))).toEqual([]);
    expect(validateAspect('ownership', owner({ url: 'https://x' }))).toEqual([
      'ERROR :: /owners/0/source/type :: field is required but not found and has no default value',
    ]);
    expect(validateAspect('ownership', owner('MANUAL'))).toEqual(['ERROR :: /owners/0/source :: "MANUAL" is not backed by a record']);
  });
});

describe('enums, arrays, maps, unions', () => {
  it('enums: one of the symbols, exactly', () => {
    expect(validateAspect('dataFlowInfo', { name: 'f', env: 'PROD' })).toEqual([]);
    expect(validateAspect('dataFlowInfo', { name: 'f', env: 'prod' })).toEqual(['ERROR :: /env :: "prod" is not an enum symbol']);
  });

  it('arrays: a list, each item checked', () => {
    expect(validateAspect('browsePaths', { paths: ['/prod/hive'] })).toEqual([]);
    expect(validateAspect('browsePaths', { paths: '/prod/hive' })).toEqual(['ERROR :: /paths :: "/prod/hive" is not backed by an array']);
    expect(validateAspect('browsePaths', { paths: ['/a', 2] })).toEqual(['ERROR :: /paths/1 :: 2 is not backed by a string']);
  });

  it('maps: an object, each value checked (map[string, array[string]] too)', () => {
    const definition = (typeQualifier: unknown) => ({
      qualifiedName: 'io.x.retention',
      valueType: 'urn:li:dataType:datahub.string',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
      typeQualifier,
    });
    expect(validateAspect('propertyDefinition', definition({ allowedTypes: ['urn:li:entityType:datahub.corpuser'] }))).toEqual([]);
    expect(validateAspect('propertyDefinition', definition({ allowedTypes: 'corpuser' }))).toEqual([
      'ERROR :: /typeQualifier/allowedTypes :: "corpuser" is not backed by an array',
    ]);
    expect(validateAspect('propertyDefinition', definition(['x']))).toEqual(['ERROR :: /typeQualifier :: ["x"] is not backed by a map']);
  });

  it('unions: one member key (the member’s full class name, its primitive, or its alias)', () => {
    expect(validateAspect('cost', { costType: 'ORG_COST_TYPE', cost: { costCode: 'sc-1' } })).toEqual([]);
    expect(validateAspect('cost', { costType: 'ORG_COST_TYPE', cost: { costId: 12.5 } })).toEqual([]);
    expect(validateAspect('cost', { costType: 'ORG_COST_TYPE', cost: { double: 12.5 } })).toEqual([
      'ERROR :: /cost :: "double" is not a member of union',
    ]);
    expect(validateAspect('cost', { costType: 'ORG_COST_TYPE', cost: { costId: 'x' } })).toEqual([
      'ERROR :: /cost/costId :: "x" is not backed by a double',
    ]);
    expect(validateAspect('dataJobInfo', { name: 'j', type: { string: 'SPARK' } })).toEqual([]);
    expect(validateAspect('dataJobInfo', { name: 'j', type: 'SPARK' })).toEqual(['ERROR :: /type :: "SPARK" is not a member of union']);
  });
});

describe('URNs (typerefs named …Urn)', () => {
  const tags = (tag: string) => ({ tags: [{ tag }] });

  it('a URN of a registry entity type whose parts fit its key', () => {
    expect(validateAspect('globalTags', tags('urn:li:tag:pii'))).toEqual([]);
    expect(validateAspect('siblings', { siblings: [DATASET], primary: true })).toEqual([]);
    const fineGrained = {
      upstreamType: 'FIELD_SET',
      downstreamType: 'FIELD',
      upstreams: ['urn:li:schemaField:(urn:li:dataset:(a,b,PROD),c)'],
    };
    expect(validateAspect('upstreamLineage', { upstreams: [], fineGrainedLineages: [fineGrained] })).toEqual([]);
    expect(validateAspect('siblings', { siblings: ['urn:li:spaceship:x'], primary: true })).toEqual([
      'ERROR :: /siblings/0 :: "Provided urn urn:li:spaceship:x" is invalid: Entity type spaceship is missing from entity registry',
    ]);
    expect(validateAspect('siblings', { siblings: ['urn:li:dataset:(a,b)'], primary: true })).toEqual([
      'ERROR :: /siblings/0 :: "Provided urn urn:li:dataset:(a,b)" is invalid: Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:dataset:(a,b)',
    ]);
    expect(validateAspect('siblings', { siblings: ['urn:li:dataset:(a,,b)'], primary: true })).toEqual([
      'ERROR :: /siblings/0 :: "Provided urn urn:li:dataset:(a,,b)" is invalid: urn:li:dataset:(a,,b): empty part disallowed',
    ]);
  });

  it('a @Relationship field takes only its destination entity types', () => {
    const owners = (owner: string) => ({ owners: [{ owner, type: 'DATAOWNER' }] });
    expect(validateAspect('ownership', owners('urn:li:corpGroup:data-eng'))).toEqual([]);
    expect(validateAspect('ownership', owners('urn:li:tag:pii'))).toEqual([
      'ERROR :: /owners/0/owner :: "Provided urn urn:li:tag:pii" is invalid: Entity type for urn: urn:li:tag:pii is not a valid destination for field path: /owners/*/owner',
    ]);
  });

  it('a typed URN (DatasetUrn, DataJobUrn) has its entity type and typed parts: nested URNs, enum symbols', () => {
    const upstream = (dataset: string) => ({ upstreams: [{ dataset, type: 'TRANSFORMED' }] });
    expect(validateAspect('upstreamLineage', upstream(DATASET))).toEqual([]);
    expect(validateAspect('upstreamLineage', upstream('urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,prod)'))).toEqual([
      'ERROR :: /upstreams/0/dataset :: "Provided urn urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,prod)" is invalid: Unable to instantiate urn type: DatasetUrn with urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,prod)',
    ]);
    expect(validateAspect('upstreamLineage', upstream('urn:li:dataset:(hive,db.orders,PROD)'))).toEqual([
      'ERROR :: /upstreams/0/dataset :: "Provided urn urn:li:dataset:(hive,db.orders,PROD)" is invalid: Unable to instantiate urn type: DatasetUrn with urn: urn:li:dataset:(hive,db.orders,PROD)',
    ]);
    const io = (inputDatajobs: string[]) => ({ inputDatasets: [], outputDatasets: [], inputDatajobs });
    expect(validateAspect('dataJobInputOutput', io(['urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)']))).toEqual([]);
    expect(validateAspect('dataJobInputOutput', io(['urn:li:dataJob:(urn:li:dataPlatform:airflow,task)']))).toEqual([
      'ERROR :: /inputDatajobs/0 :: "Provided urn urn:li:dataJob:(urn:li:dataPlatform:airflow,task)" is invalid: Unable to instantiate urn type: DataJobUrn with urn: urn:li:dataJob:(urn:li:dataPlatform:airflow,task)',
    ]);
  });

  it('@UrnValidation: the entity types a structured property’s value type and entity types may name', () => {
    const definition = (valueType: string, entityTypes: string[]) => ({ qualifiedName: 'io.x.p', valueType, entityTypes });
    expect(
      validateAspect('propertyDefinition', definition('urn:li:dataType:datahub.number', ['urn:li:entityType:datahub.dataset'])),
    ).toEqual([]);
    expect(
      validateAspect('propertyDefinition', definition('urn:li:entityType:datahub.number', ['urn:li:entityType:datahub.dataset'])),
    ).toEqual([
      'ERROR :: /valueType :: Invalid entity type urn validation failure (Required: [dataType]). Urn: urn:li:entityType:datahub.number',
    ]);
    // entityTypes is also a @Relationship to entityType, which the structural check refuses first.
    expect(validateAspect('propertyDefinition', definition('urn:li:dataType:datahub.number', ['urn:li:dataType:datahub.dataset']))).toEqual(
      [
        'ERROR :: /entityTypes/0 :: "Provided urn urn:li:dataType:datahub.dataset" is invalid: Entity type for urn: urn:li:dataType:datahub.dataset is not a valid destination for field path: /entityTypes/*',
      ],
    );
  });

  it('time-series aspects are checked by the same shapes', () => {
    const run = (extra: object) => ({
      timestampMillis: 1,
      runId: 'r1',
      asserteeUrn: DATASET,
      assertionUrn: 'urn:li:assertion:a1',
      status: 'COMPLETE',
      ...extra,
    });
    expect(validateAspect('assertionRunEvent', run({ result: { type: 'SUCCESS', actualAggValue: 3 } }))).toEqual([]);
    expect(validateAspect('assertionRunEvent', run({ result: { type: 'PASSED' }, assertionUrn: 'urn:li:dataset:x' }))).toEqual([
      'ERROR :: /result/type :: "PASSED" is not an enum symbol',
      'ERROR :: /assertionUrn :: "Provided urn urn:li:dataset:x" is invalid: Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:dataset:x',
    ]);
    expect(validateAspect('assertionRunEvent', { ...run({}), timestampMillis: undefined, partitionSpec: STAMP })).toEqual([
      'ERROR :: /timestampMillis :: field is required but not found and has no default value',
      'ERROR :: /partitionSpec/partition :: field is required but not found and has no default value',
    ]);
  });
});
