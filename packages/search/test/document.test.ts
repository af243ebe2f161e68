import { findEntity } from '@mds/core';
import { describe, expect, it } from 'vitest';
import { isFacetField, searchDocument } from '../src/index';

const doc = (entityType: string, urn: string, aspects: Record<string, unknown>) =>
  searchDocument(findEntity(entityType)!, urn, new Map(Object.entries(aspects)));

describe('searchDocument', () => {
  const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';

  it('derives a dataset’s fields from its aspects, edited description first', () => {
    const found = doc('dataset', DATASET, {
      datasetKey: { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' },
      datasetProperties: {
        name: 'orders',
        qualifiedName: 'warehouse.db.orders',
        description: 'ingested',
        customProperties: { team: 'core' },
      },
      editableDatasetProperties: { description: 'edited' },
      schemaMetadata: {
        fields: [
          {
            fieldPath: 'order_id',
            description: 'the id',
            globalTags: { tags: [{ tag: 'urn:li:tag:key' }] },
            glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Id' }] },
          },
        ],
      },
      editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'email', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }] },
      globalTags: { tags: [{ tag: 'urn:li:tag:gold' }, { tag: 'urn:li:tag:pii' }] },
      glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Orders' }], auditStamp: { time: 0, actor: 'urn:li:corpuser:x' } },
      ownership: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] },
      domains: { domains: ['urn:li:domain:sales'] },
      browsePaths: { paths: ['/prod/hive/db'] },
      status: { removed: true },
    });
    expect(found).toEqual({
      urn: DATASET,
      entityType: 'dataset',
      removed: true,
      name: 'orders',
      description: 'edited',
      platform: 'urn:li:dataPlatform:hive',
      origin: 'PROD',
      tags: ['urn:li:tag:gold', 'urn:li:tag:pii', 'urn:li:tag:key'],
      fieldTags: ['urn:li:tag:key', 'urn:li:tag:pii'],
      terms: ['urn:li:glossaryTerm:Orders', 'urn:li:glossaryTerm:Id'],
      owners: ['urn:li:corpuser:jdoe'],
      domains: ['urn:li:domain:sales'],
      browsePaths: ['/prod/hive/db'],
      customProperties: ['team=core'],
      containers: [],
      typeNames: [],
      // Words by DataHub's boost of their fields: the key's id and qualified name 10, the urn 5, field paths, custom
      // properties and the ingested description 1 (with the key parts), field descriptions 0.1 and tag names 0.5.
      text: 'order_id team=core ingested PROD',
      boosted: { top: 'db.orders warehouse.db.orders', high: DATASET, low: 'the id gold pii key' },
      // DataHub's @Searchable fields of the aspects given, by DataHub's field names, with their has-values flags.
      fields: [
        ['platform', 'urn:li:dataPlatform:hive'],
        ['id', 'db.orders'],
        ['origin', 'PROD'],
        ['domains', 'urn:li:domain:sales'],
        ['hasDomain', 'true'],
        ['fieldPaths', 'order_id'],
        ['fieldDescriptions', 'the id'],
        ['fieldTags', 'urn:li:tag:key'],
        ['fieldGlossaryTerms', 'urn:li:glossaryTerm:Id'],
        ['removed', 'true'],
        ['customProperties', 'team=core'],
        ['name', 'orders'],
        ['qualifiedName', 'warehouse.db.orders'],
        ['description', 'ingested'],
        ['hasDescription', 'true'],
        ['editedDescription', 'edited'],
        ['owners', 'urn:li:corpuser:jdoe'],
        ['hasOwners', 'true'],
        ['editedFieldTags', 'urn:li:tag:pii'],
        ['tags', 'urn:li:tag:gold'],
        ['tags', 'urn:li:tag:pii'],
        ['hasTags', 'true'],
        ['glossaryTerms', 'urn:li:glossaryTerm:Orders'],
        ['hasGlossaryTerms', 'true'],
        ['browsePaths', '/prod/hive/db'],
      ],
    });
  });

  it('counts values for numValuesFieldName and says false for hasValuesFieldName of an empty field', () => {
    const found = doc('dataset', DATASET, {
      incidentsSummary: {
        activeIncidentDetails: [{ urn: 'urn:li:incident:1', type: 'OPERATIONAL', createdAt: 5 }],
        resolvedIncidentDetails: [],
      },
      ownership: { owners: [] },
    });
    expect(found.fields).toEqual(
      expect.arrayContaining([
        ['activeIncidents', 'urn:li:incident:1'],
        ['hasActiveIncidents', 'true'],
        ['numActiveIncidents', '1'],
        ['activeIncidentCreatedTimes', '5'],
        ['hasResolvedIncidents', 'false'],
        ['numResolvedIncidents', '0'],
        ['hasOwners', 'false'],
      ]),
    );
  });

  it('falls back to the key for the name, and the key for the platform', () => {
    expect(doc('dataset', DATASET, {})).toMatchObject({
      name: 'db.orders',
      platform: 'urn:li:dataPlatform:hive',
      origin: 'PROD',
      removed: false,
      description: '',
    });
    expect(
      doc('dashboard', 'urn:li:dashboard:(looker,dashboards.11)', { dashboardInfo: { title: 'Sales', description: 'Weekly' } }),
    ).toMatchObject({ name: 'Sales', description: 'Weekly', platform: 'urn:li:dataPlatform:looker' });
    expect(doc('chart', 'urn:li:chart:(looker,c1)', {})).toMatchObject({ name: 'c1', platform: 'urn:li:dataPlatform:looker' });
    expect(doc('dataFlow', 'urn:li:dataFlow:(airflow,daily_etl,prod)', {})).toMatchObject({
      name: 'daily_etl',
      platform: 'urn:li:dataPlatform:airflow',
    });
    expect(
      doc('dataJob', 'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_etl,prod),load)', {
        dataJobInfo: { name: 'Load', type: { string: 'SQL' } },
      }),
    ).toMatchObject({ name: 'Load', platform: 'urn:li:dataPlatform:airflow' });
    expect(doc('corpuser', 'urn:li:corpuser:jdoe', { corpUserInfo: { active: true, displayName: 'John Doe' } })).toMatchObject({
      name: 'John Doe',
      platform: null,
    });
    expect(doc('tag', 'urn:li:tag:pii', { tagProperties: { name: 'PII', description: 'Personal' } })).toMatchObject({
      name: 'PII',
      description: 'Personal',
    });
    expect(
      doc('container', 'urn:li:container:abc', {
        containerProperties: { name: 'db', env: 'DEV' },
        dataPlatformInstance: { platform: 'urn:li:dataPlatform:mysql' },
      }),
    ).toMatchObject({ name: 'db', origin: 'DEV', platform: 'urn:li:dataPlatform:mysql' });
    expect(doc('domain', 'urn:li:domain:sales', {})).toMatchObject({ name: 'sales' });
    expect(doc('dataset', DATASET, { container: { container: 'urn:li:container:c' }, subTypes: { typeNames: ['View'] } })).toMatchObject({
      containers: ['urn:li:container:c'],
      typeNames: ['View'],
    });
  });

  it("keeps each structured property's values under structuredProperties.<id>, as DataHub's search does", () => {
    const found = doc('dataset', DATASET, {
      structuredProperties: {
        properties: [
          { propertyUrn: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime', values: [{ double: 30 }, { double: 90 }] },
          { propertyUrn: 'urn:li:structuredProperty:io.acryl.dataManagement.steward', values: [{ string: 'urn:li:corpuser:jdoe' }] },
          { propertyUrn: 'urn:li:structuredProperty:broken', values: [{ other: 1 }, null] },
          { values: [{ string: 'no property' }] },
        ],
      },
    });
    expect(found.fields.filter(([f]) => f.startsWith('structuredProperties.'))).toEqual([
      ['structuredProperties.io.acryl.privacy.retentionTime', '30'],
      ['structuredProperties.io.acryl.privacy.retentionTime', '90'],
      ['structuredProperties.io.acryl.dataManagement.steward', 'urn:li:corpuser:jdoe'],
    ]);
  });

  it('skips malformed values instead of failing', () => {
    expect(
      doc('dataset', DATASET, {
        globalTags: { tags: 'nope' },
        ownership: { owners: [null, 3, { owner: 5 }] },
        domains: null,
        status: { removed: 'yes' },
      }),
    ).toMatchObject({ tags: [], owners: [], domains: [], removed: false });
  });
});

describe('isFacetField', () => {
  it("knows the columns it groups, the term fields and the model's searchable fields, and nothing else", () => {
    for (const name of ['_entityType', 'platform', 'origin', 'tags', 'owners', 'domains', 'glossaryTerms', 'container', 'typeNames'])
      expect(isFacetField(name)).toBe(true);
    // A @Searchable field of DataHub's model (domainProperties.parentDomain).
    expect(isFacetField('parentDomain')).toBe(true);
    // A structured property's values, by the property's id.
    expect(isFacetField('structuredProperties.io.acryl.privacy.retentionTime')).toBe(true);
    for (const name of ['urn', 'name', 'description', 'removed', 'nope', '', 'structuredProperties.', 'structuredProperties.a b'])
      expect(isFacetField(name)).toBe(false);
  });
});
