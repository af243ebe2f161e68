import { describe, expect, it } from 'vitest';
import { relationshipFieldsOf, relationshipsOf } from '../src/index';
import { goldenAspects } from './support/golden-files';

/** The value of the item `where` (`file[index]`) for one aspect of DataHub's golden files. */
function golden(where: string, aspect: string): unknown {
  const file = where.slice(0, where.indexOf('['));
  const found = goldenAspects(file).find((a) => a.where === where && a.aspectName === aspect);
  if (!found) throw new Error(`${where} has no ${aspect}`);
  return found.value;
}
const edges = (aspect: string, value: unknown) => relationshipsOf(aspect, value).map((r) => [r.type, r.path, r.destination, r.isLineage]);
const DS = (platform: string, name: string, env = 'PROD') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},${env})`;

// Each expectation was read off the golden file by hand, against the @Relationship annotations of DataHub's PDL.
describe('relationshipsOf, on DataHub’s golden files', () => {
  it('upstreamLineage: DownstreamOf each upstream (lineage, with its audit stamp) and each fine-grained upstream', () => {
    const lineage = relationshipsOf('upstreamLineage', golden('bootstrap_mce.json[8]', 'upstreamLineage'));
    expect(lineage).toEqual([
      {
        type: 'DownstreamOf',
        destination: DS('hive', 'logging_events'),
        path: '/upstreams/0/dataset',
        entityTypes: ['dataset'],
        isLineage: true,
        isUpstream: true,
        updatedOn: 1581407189000,
        updatedActor: 'urn:li:corpuser:jdoe',
      },
      {
        type: 'DownstreamOf',
        destination: `urn:li:schemaField:(${DS('hive', 'fct_users_created')},user_name)`,
        path: '/fineGrainedLineages/0/upstreams/0',
        entityTypes: ['dataset', 'schemaField'],
        isLineage: false,
        isUpstream: true,
      },
    ]);
  });

  it('dataJobInputOutput: Consumes its inputs, Produces its outputs (no edge from fine-grained lineage here)', () => {
    expect(edges('dataJobInputOutput', golden('fivetran_snowflake_golden.json[5]', 'dataJobInputOutput'))).toEqual([
      ['Consumes', '/inputDatasets/0', DS('postgres', 'postgres_db.public.employee', 'DEV'), true],
      ['Consumes', '/inputDatasets/1', DS('postgres', 'postgres_db.public.company', 'DEV'), true],
      ['Produces', '/outputDatasets/0', DS('snowflake', 'test_database.postgres_public.employee'), true],
      ['Produces', '/outputDatasets/1', DS('snowflake', 'test_database.postgres_public.company'), true],
    ]);
  });

  it('a data process instance is an InstanceOf its job; an ML model TrainedBy its run and MemberOf its group', () => {
    expect(
      edges('dataProcessInstanceRelationships', golden('fivetran_snowflake_golden.json[8]', 'dataProcessInstanceRelationships')),
    ).toEqual([
      ['InstanceOf', '/parentTemplate', 'urn:li:dataJob:(urn:li:dataFlow:(fivetran,calendar_elected,PROD),calendar_elected)', false],
    ]);
    expect(edges('mlModelProperties', golden('mlflow_mcps_golden.json[18]', 'mlModelProperties'))).toEqual([
      ['TrainedBy', '/trainingJobs/0', 'urn:li:dataProcessInstance:2666299269d6ebea994d5ec0c29e3aca', true],
      ['MemberOf', '/groups/0', 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,test-model,PROD)', true],
    ]);
  });

  it('containers and data products: IsPartOf the parent container, DataProductContains each asset', () => {
    expect(edges('container', golden('test_container_complex_golden.json[2]', 'container'))).toEqual([
      ['IsPartOf', '/container', 'urn:li:container:37d6500021cda2a0aa7ae1900eab5a9c', false],
    ]);
    expect(edges('dataProductProperties', golden('golden_dataproduct_out.json[0]', 'dataProductProperties'))).toEqual([
      ['DataProductContains', '/assets/0/destinationUrn', 'urn:li:container:DATABASE', false],
      ['DataProductContains', '/assets/1/destinationUrn', 'urn:li:container:SCHEMA', false],
      [
        'DataProductContains',
        '/assets/2/destinationUrn',
        'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,test_feature_table_all_feature_dtypes)',
        false,
      ],
    ]);
  });

  it('assertions Assert their dataset and fields; incidents are IncidentOn their entities', () => {
    const asserted = DS('hdfs', 'SampleCypressHdfsAssertionDataset');
    expect(edges('assertionInfo', golden('cypress_data.json[34]', 'assertionInfo'))).toEqual([
      ['Asserts', '/datasetAssertion/dataset', asserted, false],
      ['Asserts', '/datasetAssertion/fields/0', `urn:li:schemaField:(${asserted},field_foo)`, false],
    ]);
    expect(edges('incidentInfo', golden('incidents_data.json[1]', 'incidentInfo'))).toEqual([
      ['IncidentOn', '/entities/0', DS('kafka', 'incidents-sample-dataset'), false],
    ]);
  });

  it('ownership, tags, terms, domains, group membership', () => {
    expect(edges('ownership', golden('bootstrap_mce.json[4]', 'ownership'))).toEqual([
      ['OwnedBy', '/owners/0/owner', 'urn:li:corpuser:jdoe', false],
      ['OwnedBy', '/owners/1/owner', 'urn:li:corpuser:datahub', false],
    ]);
    expect(edges('glossaryTerms', golden('csv-enricher_csv_enricher_golden.json[0]', 'glossaryTerms'))).toEqual([
      ['TermedWith', '/terms/0/urn', 'urn:li:glossaryTerm:CustomerAccount', false],
    ]);
    expect(edges('globalTags', { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold' }] })).toEqual([
      ['TaggedWith', '/tags/0/tag', 'urn:li:tag:pii', false],
      ['TaggedWith', '/tags/1/tag', 'urn:li:tag:gold', false],
    ]);
    expect(edges('domains', golden('test_domains.json[1]', 'domains'))).toEqual([
      ['AssociatedWith', '/domains/0', 'urn:li:domain:marketing', false],
    ]);
    expect(edges('groupMembership', golden('okta_mces_golden_default_config.json[13]', 'groupMembership'))).toEqual([
      ['IsMemberOfGroup', '/groups/0', 'urn:li:corpGroup:All%20Employees', false],
      ['IsMemberOfGroup', '/groups/1', 'urn:li:corpGroup:Engineering', false],
    ]);
  });

  it('schema fields: a field’s tags are SchemaFieldTaggedWith (the field’s override), not TaggedWith', () => {
    const schema = {
      fields: [
        {
          fieldPath: 'id',
          globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
          glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Id' }] },
        },
      ],
    };
    expect(edges('schemaMetadata', schema)).toEqual([
      ['SchemaFieldTaggedWith', '/fields/0/globalTags/tags/0/tag', 'urn:li:tag:pii', false],
      ['SchemaFieldWithGlossaryTerm', '/fields/0/glossaryTerms/terms/0/urn', 'urn:li:glossaryTerm:Id', false],
    ]);
  });

  it('reads sibling values for an edge from the same array item (created time and actor, properties, via)', () => {
    const value = {
      upstreams: [
        {
          dataset: DS('hive', 'a'),
          type: 'COPY',
          created: { time: 5, actor: 'urn:li:corpuser:a' },
          auditStamp: { time: 7, actor: 'urn:li:corpuser:b' },
          properties: { k: 'v' },
          query: 'urn:li:query:q1',
        },
        { dataset: DS('hive', 'b'), type: 'COPY' },
      ],
    };
    expect(relationshipsOf('upstreamLineage', value)).toEqual([
      {
        type: 'DownstreamOf',
        destination: DS('hive', 'a'),
        path: '/upstreams/0/dataset',
        entityTypes: ['dataset'],
        isLineage: true,
        isUpstream: true,
        createdOn: 5,
        createdActor: 'urn:li:corpuser:a',
        updatedOn: 7,
        updatedActor: 'urn:li:corpuser:b',
        properties: { k: 'v' },
        via: 'urn:li:query:q1',
      },
      {
        type: 'DownstreamOf',
        destination: DS('hive', 'b'),
        path: '/upstreams/1/dataset',
        entityTypes: ['dataset'],
        isLineage: true,
        isUpstream: true,
      },
    ]);
  });

  it('none for an aspect without @Relationship fields, or one the registry lacks', () => {
    expect(relationshipFieldsOf('status')).toEqual([]);
    expect(relationshipsOf('status', { removed: true })).toEqual([]);
    expect(relationshipsOf('nope', { container: 'urn:li:container:x' })).toEqual([]);
  });
});
