import { describe, expect, it } from 'vitest';
import { pegasusFromAvro, validateAspect } from '../src/index';

// The Avro JSON of DataHub's MCE files (bootstrap_mce.json, the smoke tests' data) read as Pegasus JSON.
describe('pegasusFromAvro', () => {
  it('renames pegasus2avro union members and unwraps Avro’s optional wrappers, by the schema', () => {
    const avro = {
      schemaName: 'SampleKafkaSchema',
      platform: 'urn:li:dataPlatform:kafka',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.pegasus2avro.schema.KafkaSchema': { documentSchema: '{}' } },
      fields: [
        {
          fieldPath: '[version=2.0].[type=boolean].field_foo_2',
          description: { string: 'Foo field description' },
          type: { type: { 'com.linkedin.pegasus2avro.schema.BooleanType': {} } },
          nativeDataType: 'varchar(100)',
        },
      ],
    };
    const pegasus = pegasusFromAvro('schemaMetadata', avro);
    expect(pegasus).toEqual({
      ...avro,
      platformSchema: { 'com.linkedin.schema.KafkaSchema': { documentSchema: '{}' } },
      fields: [{ ...avro.fields[0], description: 'Foo field description', type: { type: { 'com.linkedin.schema.BooleanType': {} } } }],
    });
    expect(validateAspect('schemaMetadata', pegasus)).toEqual([]);
  });

  it('wraps a union written bare in the first member that takes it, and reads an aliased union’s discriminator', () => {
    expect(pegasusFromAvro('dataJobInfo', { name: 'j', type: 'SQL' })).toEqual({
      name: 'j',
      type: { 'com.linkedin.datajob.azkaban.AzkabanJobType': 'SQL' },
    });
    expect(pegasusFromAvro('dataJobInfo', { name: 'j', type: 'SPARK' })).toEqual({ name: 'j', type: { string: 'SPARK' } });
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,a,PROD)';
    expect(pegasusFromAvro('chartInfo', { inputs: { array: [{ string: urn }] } })).toEqual({ inputs: [{ string: urn }] });
    expect(pegasusFromAvro('chartInfo', { inputs: [urn] })).toEqual({ inputs: [{ string: urn }] });
    expect(pegasusFromAvro('cost', { costType: 'ORG_COST_TYPE', cost: { fieldDiscriminator: 'costCode', costCode: 'sc-1' } })).toEqual({
      costType: 'ORG_COST_TYPE',
      cost: { costCode: 'sc-1' },
    });
  });

  it('leaves Pegasus JSON, and what the schema does not describe, as it is', () => {
    const value = { name: 'orders', customProperties: { map: 'x' }, extra: { string: 'kept' } };
    expect(pegasusFromAvro('datasetProperties', value)).toEqual(value);
    expect(pegasusFromAvro('nope', { string: 'x' })).toEqual({ string: 'x' });
  });
});
