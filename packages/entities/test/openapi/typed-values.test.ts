import { describe, expect, it } from 'vitest';
import { aspectFromTyped, aspectToTyped } from '../../src/openapi/typed-values';

// DataHub's v1 models write unions and records with `__type`; mds stores Pegasus JSON.
const typed = {
  __type: 'SchemaMetadata',
  schemaName: 'SampleHdfsSchema',
  platform: 'urn:li:dataPlatform:platform',
  platformSchema: { __type: 'MySqlDDL', tableSchema: 'schema' },
  version: 0,
  hash: '',
  fields: [{ fieldPath: 'county_name', nullable: true, type: { type: { __type: 'StringType' } }, nativeDataType: 'String()' }],
};
const pegasus = {
  schemaName: 'SampleHdfsSchema',
  platform: 'urn:li:dataPlatform:platform',
  platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: 'schema' } },
  version: 0,
  hash: '',
  fields: [
    { fieldPath: 'county_name', nullable: true, type: { type: { 'com.linkedin.schema.StringType': {} } }, nativeDataType: 'String()' },
  ],
};

describe('v1 __type values', () => {
  it('become Pegasus JSON: a union its member keyed by class, a record without its __type', () => {
    expect(aspectFromTyped('schemaMetadata', typed)).toEqual(pegasus);
  });

  it('come back from Pegasus JSON with the class simple names DataHub writes', () => {
    expect(aspectToTyped('schemaMetadata', 'com.linkedin.schema.SchemaMetadata', pegasus)).toEqual({
      ...typed,
      fields: [{ ...typed.fields[0], type: { type: { __type: 'StringType' } } }],
    });
  });

  it('leave a union in Pegasus form, or of an unknown member, as it is', () => {
    const value = { ...pegasus, platformSchema: { __type: 'NoSuchSchema', x: 1 } };
    expect(aspectFromTyped('schemaMetadata', value)).toEqual(value);
  });
});
