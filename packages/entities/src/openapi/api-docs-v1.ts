import { ENTITY_SPECS } from '@mds/core';
import { answer, bool, errorResponses, jsonContent, query, ref } from './api-docs-parts';
import type { JsonSchema } from './json-schema';
import { ENTITIES_V1_PATH, RELATIONSHIPS_V1_PATH } from './v1';

// The document's paths beside the v3 entity API: the v1 calls of DataHub's usage guide, and the time-series operation
// the server also answers under /openapi (served by @mds/timeseries, described here so that one document has them all).

const URNS = {
  ...query('urns', { type: 'array', items: { type: 'string' } }, 'Entity URNs, all of one entity type (repeat the parameter)'),
  required: true,
  style: 'form',
  explode: true,
};
const entityTypes = { type: 'string', enum: ENTITY_SPECS.map((e) => e.name) };
const tags = ['Entities (v1)'];

export const V1_SCHEMAS: Record<string, JsonSchema> = {
  UpsertAspectRequest: {
    type: 'object',
    required: ['entityType', 'entityUrn', 'aspect'],
    properties: {
      entityType: entityTypes,
      entityUrn: { type: 'string' },
      aspectName: { type: 'string', description: 'Optional: found from aspect.__type when absent' },
      aspect: {
        type: 'object',
        required: ['__type'],
        properties: { __type: { type: 'string', description: "The aspect's class, e.g. SchemaMetadata" } },
        additionalProperties: true,
      },
    },
  },
  EnvelopedAspect: {
    type: 'object',
    required: ['name', 'type', 'version', 'value'],
    properties: {
      name: { type: 'string' },
      type: { type: 'string', enum: ['VERSIONED', 'TIMESERIES'] },
      version: { type: 'integer', format: 'int64' },
      value: { type: 'object', additionalProperties: true },
      created: ref('AuditStamp'),
    },
  },
  UrnToEntityMap: {
    type: 'object',
    required: ['responses'],
    properties: {
      responses: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          required: ['entityName', 'urn', 'aspects'],
          properties: {
            entityName: { type: 'string' },
            urn: { type: 'string' },
            aspects: { type: 'object', additionalProperties: ref('EnvelopedAspect') },
          },
        },
      },
    },
  },
  RollbackRunResult: {
    type: 'object',
    required: ['rowsRolledBack', 'rowsDeletedFromEntityDeletion'],
    properties: {
      rowsRolledBack: { type: 'array', items: { type: 'object', required: ['urn'], properties: { urn: { type: 'string' } } } },
      rowsDeletedFromEntityDeletion: { type: 'integer' },
    },
  },
  RelatedEntities: {
    type: 'object',
    required: ['start', 'count', 'total', 'entities'],
    properties: {
      start: { type: 'integer' },
      count: { type: 'integer' },
      total: { type: 'integer' },
      entities: {
        type: 'array',
        items: {
          type: 'object',
          required: ['relationshipType', 'urn'],
          properties: { relationshipType: { type: 'string' }, urn: { type: 'string' } },
        },
      },
    },
  },
  IndexSizes: {
    type: 'object',
    required: ['sizes'],
    properties: {
      sizes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['aspectName', 'entityName', 'indexName', 'sizeMb'],
          properties: {
            aspectName: { type: 'string' },
            entityName: { type: 'string' },
            indexName: { type: 'string' },
            sizeMb: { type: 'number' },
          },
        },
      },
    },
  },
};

/** The v1 paths (each also answered without its trailing slash) and the time-series operation. */
export function v1Paths(): Record<string, unknown> {
  return {
    [`${ENTITIES_V1_PATH}/`]: {
      post: {
        tags,
        operationId: 'postEntitiesV1',
        summary: 'Upsert aspects (DataHub v1 models: records and unions marked with __type)',
        parameters: [
          bool('createEntityIfNotExists', false, 'CREATE_ENTITY: refuse (422) an entity that exists'),
          bool('createIfNotExists', false, 'CREATE: refuse (422) an aspect that exists'),
        ],
        requestBody: { required: true, content: jsonContent({ type: 'array', items: ref('UpsertAspectRequest') }) },
        responses: { 200: answer('The URNs written', { type: 'array', items: { type: 'string' } }), ...errorResponses(400, 401, 403, 422) },
      },
      delete: {
        tags,
        operationId: 'deleteEntitiesV1',
        summary: 'Delete entities: soft (status removed) by default, or hard',
        parameters: [URNS, bool('soft', true, 'Soft delete (the status aspect says removed); false deletes every row')],
        responses: {
          200: answer('One result per URN', { type: 'array', items: ref('RollbackRunResult') }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    [`${ENTITIES_V1_PATH}/latest`]: {
      get: {
        tags,
        operationId: 'getLatestEntitiesV1',
        summary: 'The latest aspects of entities (absent ones left out)',
        parameters: [
          URNS,
          {
            ...query('aspectNames', { type: 'array', items: { type: 'string' } }, 'Aspects to include (the key always is); none: all'),
            style: 'form',
            explode: true,
          },
        ],
        responses: { 200: answer('The entities found, by URN', ref('UrnToEntityMap')), ...errorResponses(400, 401, 403) },
      },
    },
    [`${RELATIONSHIPS_V1_PATH}/`]: {
      get: {
        tags: ['Relationships (v1)'],
        operationId: 'getRelationshipsV1',
        summary: 'The entities related to one',
        parameters: [
          { ...query('urn', { type: 'string' }, 'The entity URN'), required: true },
          {
            ...query(
              'relationshipTypes',
              { type: 'array', items: { type: 'string' } },
              'Relationship types, e.g. DownstreamOf, OwnedBy (repeatable or a comma list)',
            ),
            required: true,
            style: 'form',
            explode: true,
          },
          {
            ...query('direction', { type: 'string', enum: ['INCOMING', 'OUTGOING'] }, 'INCOMING: edges to the urn; OUTGOING: from it'),
            required: true,
          },
          query('start', { type: 'integer', default: 0, minimum: 0 }, 'Offset'),
          query('count', { type: 'integer', default: 200, minimum: 0, maximum: 10000 }, 'Page size'),
        ],
        responses: { 200: answer('A page of related entities', ref('RelatedEntities')), ...errorResponses(400, 401, 403) },
      },
    },
    '/openapi/operations/elasticSearch/getIndexSizes': {
      get: {
        tags: ['ElasticSearch Operations'],
        operationId: 'getIndexSizes',
        summary: 'The time-series indices and their sizes, largest first',
        responses: {
          200: answer('Index sizes', ref('IndexSizes')),
          401: answer('No or bad credentials'),
          403: answer('The caller lacks GET_TIMESERIES_INDEX_SIZES'),
        },
      },
    },
  };
}
