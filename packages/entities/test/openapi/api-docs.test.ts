import SwaggerParser from '@apidevtools/swagger-parser';
import { ENTITY_SPECS, aspectSpec } from '@mds/core';
import { describe, expect, it } from 'vitest';
import { buildApiDocument } from '../../src/openapi/api-docs';

const document = buildApiDocument();
const schemas = document.components.schemas as Record<string, any>;
const paths = document.paths as Record<string, any>;

describe('the generated OpenAPI document', () => {
  // The document covers DataHub's 61 entity types (3 MB): validating it takes seconds, more on a loaded machine.
  it('is a valid OpenAPI 3 document (swagger-parser validates it, $refs resolved)', { timeout: 120_000 }, async () => {
    const api = await SwaggerParser.validate(structuredClone(document) as never);
    expect(api).toMatchObject({ openapi: '3.0.3' });
  });

  it('has one component schema per aspect of the registry, from its shape, named after it', () => {
    const aspects = new Set(ENTITY_SPECS.flatMap((e) => e.aspects));
    for (const aspect of aspects) {
      const name = aspect[0]!.toUpperCase() + aspect.slice(1);
      expect(schemas[name], aspect).toMatchObject({ type: 'object', title: aspectSpec(aspect)!.pdlClass });
    }
    expect(schemas.GlobalTags).toMatchObject({
      required: ['tags'],
      properties: {
        tags: { type: 'array', items: { type: 'object', required: ['tag'], properties: { tag: { type: 'string', pattern: '^urn:li:' } } } },
      },
    });
    expect(schemas.Ownership.properties.owners.items.properties.type.enum).toContain('DATAOWNER');
    expect(schemas.DatasetKey).toMatchObject({ required: ['platform', 'name', 'origin'] });
  });

  it('lists the paths of every entity type, with each of its aspects, as DataHub does', () => {
    for (const entity of ENTITY_SPECS) {
      const base = `/openapi/v3/entity/${entity.name}`;
      expect(Object.keys(paths[base])).toEqual(['get', 'post', 'patch']);
      expect(Object.keys(paths[`${base}/{urn}`])).toEqual(['parameters', 'get', 'head', 'delete']);
      expect(paths[`${base}/batchGet`].post).toBeDefined();
      for (const aspect of entity.aspects) expect(paths[`${base}/{urn}/${aspect}`]?.get, `${entity.name} ${aspect}`).toBeDefined();
    }
    expect(paths['/openapi/v3/entity/dataset/{urn}/globalTags'].patch).toBeDefined();
    expect(paths['/openapi/v3/entity/dataset/{urn}/subTypes'].patch).toBeUndefined();
    expect(paths['/openapi/v3/entity/scroll'].post.operationId).toBe('scrollEntities');
  });

  it("describes the v1 calls of DataHub's usage guide and the time-series operation in the same document", () => {
    expect(Object.keys(paths['/openapi/entities/v1/'])).toEqual(['post', 'delete']);
    expect(paths['/openapi/entities/v1/latest'].get.parameters.map((p: any) => p.name)).toEqual(['urns', 'aspectNames']);
    expect(paths['/openapi/relationships/v1/'].get.responses[200].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/RelatedEntities',
    });
    expect(paths['/openapi/operations/elasticSearch/getIndexSizes'].get.operationId).toBe('getIndexSizes');
  });
});
