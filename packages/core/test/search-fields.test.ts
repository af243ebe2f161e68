import { describe, expect, it } from 'vitest';
import { ENTITY_SPECS, searchableFieldsOf } from '../src/index';

const fieldOf = (entity: string, fieldName: string) => searchableFieldsOf(entity).find((f) => f.fieldName === fieldName);

// Each expectation was checked by hand against the @Searchable annotations of DataHub's PDL (DatasetKey, GlobalTags,
// Ownership's Owner, SchemaField, DataJobInputOutput, …) and DataHub's defaults (SearchableAnnotation).
describe('searchableFieldsOf', () => {
  it('a dataset’s key: platform, id (its name, boosted), and origin as the Environment facet', () => {
    expect(searchableFieldsOf('dataset').filter((f) => f.aspect === 'datasetKey')).toEqual([
      expect.objectContaining({
        path: '/platform',
        fieldName: 'platform',
        fieldType: 'URN',
        boostScore: 1,
        isFacet: false,
        enableAutocomplete: true,
      }),
      expect.objectContaining({ path: '/name', fieldName: 'id', fieldType: 'WORD_GRAM', boostScore: 10, queryByDefault: true }),
      expect.objectContaining({
        path: '/origin',
        fieldName: 'origin',
        fieldType: 'TEXT_PARTIAL',
        addToFilters: true,
        isFacet: true,
        filterNameOverride: 'Environment',
        filterName: 'Environment',
        queryByDefault: false,
      }),
    ]);
  });

  it('tags, terms, owners and domains are facets with their filter names and has-values fields', () => {
    expect(fieldOf('dataset', 'tags')).toMatchObject({
      aspect: 'globalTags',
      path: '/tags/*/tag',
      fieldType: 'URN',
      boostScore: 0.5,
      isFacet: true,
      filterName: 'Tag',
      hasValuesFieldName: 'hasTags',
    });
    expect(fieldOf('chart', 'glossaryTerms')).toMatchObject({
      aspect: 'glossaryTerms',
      path: '/terms/*/urn',
      isFacet: true,
      filterName: 'Glossary Term',
      hasValuesFieldName: 'hasGlossaryTerms',
      includeSystemModifiedAt: true,
      systemModifiedAtFieldName: 'termsModifiedAt',
    });
    expect(fieldOf('dashboard', 'owners')).toMatchObject({
      path: '/owners/*/owner',
      filterName: 'Owned By',
      queryByDefault: false,
      hasValuesFieldName: 'hasOwners',
    });
    expect(fieldOf('container', 'domains')).toMatchObject({ path: '/domains/*', filterName: 'Domain', hasValuesFieldName: 'hasDomain' });
  });

  it('a schema field’s tags are fieldTags (the field’s override of GlobalTags), not a facet', () => {
    expect(fieldOf('dataset', 'fieldTags')).toMatchObject({
      aspect: 'schemaMetadata',
      path: '/fields/*/globalTags/tags/*/tag',
      boostScore: 0.5,
      isFacet: false,
    });
    expect(fieldOf('dataset', 'fieldPaths')).toMatchObject({ path: '/fields/*/fieldPath', fieldType: 'TEXT', queryByDefault: true });
  });

  it('counts: numValuesFieldName of a data job’s inputs and outputs', () => {
    expect(fieldOf('dataJob', 'inputs')).toMatchObject({
      path: '/inputDatasets/*',
      numValuesFieldName: 'numInputDatasets',
      queryByDefault: false,
    });
    expect(fieldOf('dataJob', 'inputDatasetEdges')).toMatchObject({
      path: '/inputDatasetEdges/*/destinationUrn',
      numValuesFieldName: 'numInputDatasets',
    });
    expect(fieldOf('dataJob', 'outputs')).toMatchObject({ path: '/outputDatasets/*', numValuesFieldName: 'numOutputDatasets' });
  });

  it('a map field is one field at the map’s path; DataHub’s defaults fill what an annotation leaves out', () => {
    expect(fieldOf('dataset', 'customProperties')).toMatchObject({
      aspect: 'datasetProperties',
      path: '/customProperties',
      fieldType: 'TEXT',
      queryByDefault: true,
    });
    // `@Searchable = {}` on ChartInfo.description: TEXT, queried by default, boost 1, no facet.
    expect(fieldOf('chart', 'description')).toMatchObject({
      aspect: 'chartInfo',
      fieldType: 'TEXT',
      queryByDefault: true,
      boostScore: 1,
      isFacet: false,
    });
  });

  it('every entity type’s fields come from its own aspects, in its aspect order; an unknown type has none', () => {
    for (const entity of ENTITY_SPECS) {
      const order = searchableFieldsOf(entity.name).map((f) => entity.aspects.indexOf(f.aspect));
      expect(order.every((i) => i >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
    }
    expect(searchableFieldsOf('DATASET')).toBe(searchableFieldsOf('dataset'));
    expect(searchableFieldsOf('spaceship')).toEqual([]);
  });
});
