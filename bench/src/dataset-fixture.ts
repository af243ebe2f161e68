/**
 * The dataset the `dataset(urn)` scenario reads, the same for mds (ingested) and the ceiling (in memory): properties,
 * two tags, two owners and a schema of 20 fields.
 */
export const DATASET_FIELDS = 20;

export const benchReadDatasetUrn = (runId: string, k: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,bench_${runId}.read_${k},PROD)`;

export const datasetAspects = (k: number) => ({
  datasetProperties: {
    name: `read_${k}`,
    description: 'A dataset read by the benchmark.',
    customProperties: { team: 'bench', tier: 'gold' },
  },
  globalTags: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] },
  ownership: {
    owners: [
      { owner: 'urn:li:corpuser:alice', type: 'TECHNICAL_OWNER' },
      { owner: 'urn:li:corpuser:bob', type: 'DATA_STEWARD' },
    ],
    lastModified: { time: 0, actor: 'urn:li:corpuser:etl' },
  },
  schemaMetadata: schemaMetadataOf(`read_${k}`, DATASET_FIELDS),
});

/** A hive schema of `fields` columns, strings and numbers in turn, each with a description. */
export const schemaMetadataOf = (name: string, fields: number) => ({
  schemaName: name,
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
  fields: Array.from({ length: fields }, (_, i) => ({
    fieldPath: `column_${i}`,
    nativeDataType: i % 2 ? 'bigint' : 'varchar(64)',
    type: { type: { [i % 2 ? 'com.linkedin.schema.NumberType' : 'com.linkedin.schema.StringType']: {} } },
    nullable: i % 3 === 0,
    description: `Column ${i}`,
  })),
});

/** The GraphQL answer mds gives for that dataset, as the ceiling's resolvers answer it from memory. */
export function datasetAnswer(urn: string) {
  const name = urn.slice(urn.indexOf(',') + 1, urn.lastIndexOf(','));
  const k = Number(name.slice(name.lastIndexOf('_') + 1));
  const a = datasetAspects(k);
  return {
    urn,
    type: 'DATASET',
    name,
    platform: { urn: 'urn:li:dataPlatform:hive', name: 'hive' },
    properties: {
      ...a.datasetProperties,
      customProperties: Object.entries(a.datasetProperties.customProperties).map(([key, value]) => ({ key, value })),
    },
    tags: { tags: a.globalTags.tags.map((t) => ({ tag: { urn: t.tag }, associatedUrn: urn })) },
    ownership: {
      owners: a.ownership.owners.map((o) => ({
        owner: { __typename: 'CorpUser', urn: o.owner, username: o.owner.split(':').pop() },
        type: o.type,
      })),
    },
    schemaMetadata: {
      name: a.schemaMetadata.schemaName,
      platformUrn: a.schemaMetadata.platform,
      version: 0,
      hash: '',
      fields: a.schemaMetadata.fields.map((f) => ({
        fieldPath: f.fieldPath,
        nativeDataType: f.nativeDataType,
        type: f.nativeDataType === 'bigint' ? 'NUMBER' : 'STRING',
        nullable: f.nullable,
        description: f.description,
      })),
    },
  };
}
