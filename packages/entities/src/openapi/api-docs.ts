import { ASPECT_SHAPES, ENTITY_SPECS, aspectSpec, type EntitySpec } from '@mds/core';
import { supportsPatch } from '../model/patch';
import { stringify } from 'yaml';
import { answer, bool, ERRORS, errorResponses, jsonContent, query, ref, upperFirst } from './api-docs-parts';
import { V1_SCHEMAS, v1Paths } from './api-docs-v1';
import { shapeSchema, type JsonSchema } from './json-schema';
import { ENTITY_PATH } from './reads';
import type { OpenApiRoute } from './route';

export const API_DOCS_PATH = '/openapi/v3/api-docs';

const URN = { name: 'urn', in: 'path', required: true, schema: { type: 'string' }, description: 'The entity URN, percent-encoded' };
const SYSTEM_METADATA = bool('systemMetadata', false, 'Include systemMetadata and auditStamp with each aspect');
const ASYNC = (fallback: boolean) => bool('async', fallback, 'Answer 202 (mds still writes before answering)');
const aspectsParameter = (entity: EntitySpec) => ({
  ...query(
    'aspects',
    { type: 'array', items: { type: 'string', enum: [...entity.aspects] } },
    'Aspects to include (repeatable or a comma list); the key always is',
  ),
  style: 'form',
  explode: true,
});

const aspectItem = (valueSchema: JsonSchema) => ({
  type: 'object',
  required: ['value'],
  properties: { value: valueSchema, systemMetadata: ref('SystemMetadata'), auditStamp: ref('AuditStamp') },
});
const PATCH_SCHEMA: JsonSchema = {
  oneOf: [
    {
      type: 'object',
      required: ['patch'],
      properties: {
        patch: { type: 'array', items: ref('PatchOperation') },
        arrayPrimaryKeys: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
        forceGenericPatch: { type: 'boolean' },
      },
    },
    { type: 'array', items: ref('PatchOperation') },
  ],
};

/** One component schema per aspect (its value), with the item and request shapes around it. */
function aspectComponents(): Record<string, JsonSchema> {
  const aspects = [...new Set(ENTITY_SPECS.flatMap((e) => e.aspects))].sort();
  return Object.fromEntries(
    aspects.flatMap((aspect) => {
      const shape = ASPECT_SHAPES.get(aspect);
      const spec = aspectSpec(aspect)!;
      const value = {
        ...(shape ? shapeSchema(shape) : { type: 'object', additionalProperties: true }),
        title: spec.pdlClass,
        description: `${spec.kind} aspect ${aspect}`,
      };
      const name = upperFirst(aspect);
      return [
        [name, value],
        [`${name}Item`, aspectItem(ref(name))],
        [
          `${name}Request`,
          {
            type: 'object',
            required: ['value'],
            properties: { value: ref(name), systemMetadata: ref('SystemMetadata'), headers: ref('Headers') },
          },
        ],
      ];
    }),
  );
}

/** An entity type's object, write and patch items, scroll page. */
function entityComponents(entity: EntitySpec): Record<string, JsonSchema> {
  const name = upperFirst(entity.name);
  const byAspect = (schema: (aspect: string) => JsonSchema) => Object.fromEntries(entity.aspects.map((aspect) => [aspect, schema(aspect)]));
  const urn = { type: 'string', pattern: `^urn:li:${entity.name}:` };
  return {
    [`${name}Entity`]: { type: 'object', required: ['urn'], properties: { urn, ...byAspect((a) => ref(`${upperFirst(a)}Item`)) } },
    [`${name}EntityRequest`]: {
      type: 'object',
      required: ['urn'],
      properties: { urn, ...byAspect((a) => ref(`${upperFirst(a)}Request`)) },
    },
    [`${name}EntityPatch`]: {
      type: 'object',
      required: ['urn'],
      properties: { urn, ...byAspect(() => ({ type: 'object', required: ['value'], properties: { value: PATCH_SCHEMA } })) },
    },
    [`${name}BatchGet`]: {
      type: 'object',
      required: ['urn'],
      properties: { urn, ...byAspect(() => ({ type: 'object', properties: { headers: ref('Headers') } })) },
    },
    [`${name}Scroll`]: {
      type: 'object',
      required: ['entities'],
      properties: { entities: { type: 'array', items: ref(`${name}Entity`) }, scrollId: { type: 'string' } },
    },
  };
}

/** Every path of one entity type, as DataHub's springdoc lists them: the type, an entity, each of its aspects. */
function entityPaths(entity: EntitySpec): Record<string, unknown> {
  const name = upperFirst(entity.name);
  const base = `${ENTITY_PATH}/${entity.name}`;
  const tags = [`${name} Entity`];
  const op = (id: string, summary: string, extra: Record<string, unknown>) => ({ tags, operationId: `${id}${name}`, summary, ...extra });
  const entityAnswer = (description: string) => answer(description, ref(`${name}Entity`));
  const writeAnswers = { 200: entityAnswer('Written (async=false)'), 202: entityAnswer('Written (async=true)') };
  const listAnswers = {
    200: answer('Written (async=false)', { type: 'array', items: ref(`${name}Entity`) }),
    202: answer('Written (async=true)', { type: 'array', items: ref(`${name}Entity`) }),
  };
  const paths: Record<string, unknown> = {
    [base]: {
      get: op('scroll', `List ${entity.name} entities`, {
        parameters: [
          query('count', { type: 'integer', default: 10, minimum: 0 }, 'Page size'),
          query('query', { type: 'string', default: '*' }, 'Search words (each a prefix); * for all'),
          query('scrollId', { type: 'string' }, 'The scrollId of the previous page'),
          query('sortCriteria', { type: 'string', enum: ['urn', 'name'], default: 'urn' }, 'Sort field'),
          query('sortOrder', { type: 'string', enum: ['ASCENDING', 'DESCENDING'], default: 'ASCENDING' }, 'Sort order'),
          bool('includeSoftDelete', false, 'Include soft-deleted entities'),
          aspectsParameter(entity),
          SYSTEM_METADATA,
        ],
        responses: { 200: answer('A page of entities', ref(`${name}Scroll`)), ...errorResponses(400, 401, 404) },
      }),
      post: op('create', `Upsert ${entity.name} aspects in a batch`, {
        parameters: [ASYNC(true), SYSTEM_METADATA],
        requestBody: { required: true, content: jsonContent({ type: 'array', items: ref(`${name}EntityRequest`) }) },
        responses: { ...listAnswers, ...errorResponses(400, 401, 403, 404, 422) },
      }),
      patch: op('patch', `Patch ${entity.name} aspects in a batch`, {
        parameters: [ASYNC(true), SYSTEM_METADATA],
        requestBody: { required: true, content: jsonContent({ type: 'array', items: ref(`${name}EntityPatch`) }) },
        responses: { ...listAnswers, ...errorResponses(400, 401, 403, 404, 422) },
      }),
    },
    [`${base}/batchGet`]: {
      post: op('batchGet', `Get ${entity.name} entities by urn`, {
        parameters: [SYSTEM_METADATA],
        requestBody: { required: true, content: jsonContent({ type: 'array', items: ref(`${name}BatchGet`) }) },
        responses: {
          200: answer('The entities that exist', { type: 'array', items: ref(`${name}Entity`) }),
          ...errorResponses(400, 401, 403, 404),
        },
      }),
    },
    [`${base}/{urn}`]: {
      parameters: [URN],
      get: op('get', `Get a ${entity.name}`, {
        parameters: [aspectsParameter(entity), SYSTEM_METADATA],
        responses: { 200: entityAnswer('The entity'), ...errorResponses(400, 401, 403, 404) },
      }),
      head: op('head', `Whether a ${entity.name} exists`, {
        parameters: [bool('includeSoftDelete', false, 'Count a soft-deleted entity')],
        responses: { 204: answer('It exists'), 404: answer('It does not') },
      }),
      delete: op('delete', `Delete a ${entity.name}`, {
        parameters: [
          {
            ...query('aspects', { type: 'array', items: { type: 'string', enum: [...entity.aspects] } }, 'Only these aspects'),
            style: 'form',
            explode: true,
          },
          bool('clear', false, 'Every aspect but the key'),
        ],
        responses: { 200: answer('Deleted'), ...errorResponses(400, 401, 403, 404) },
      }),
    },
  };
  for (const aspect of entity.aspects) {
    const aspectName = upperFirst(aspect);
    const id = (verb: string) => `${verb}${name}${aspectName}`;
    const aspectOp = (verb: string, summary: string, extra: Record<string, unknown>) => ({
      tags,
      operationId: id(verb),
      summary,
      ...extra,
    });
    paths[`${base}/{urn}/${aspect}`] = {
      parameters: [URN],
      get: aspectOp('get', `Get ${aspect}`, {
        parameters: [
          query('version', { type: 'integer', format: 'int64', default: 0 }, '0 the latest, n the nth archived, -1 the newest archived'),
          SYSTEM_METADATA,
        ],
        responses: { 200: answer(`The ${aspect} aspect`, ref(`${aspectName}Item`)), ...errorResponses(400, 401, 403, 404) },
      }),
      head: aspectOp('head', `Whether ${aspect} exists`, {
        parameters: [bool('includeSoftDelete', false, 'Count a soft-deleted entity')],
        responses: { 204: answer('It exists'), 404: answer('It does not') },
      }),
      post: aspectOp('create', `Write ${aspect}`, {
        parameters: [
          ASYNC(false),
          bool('createIfNotExists', true, 'CREATE: refuse (422) an existing aspect'),
          bool('createIfEntityNotExists', false, 'CREATE_ENTITY: refuse (422) an existing entity'),
          SYSTEM_METADATA,
        ],
        requestBody: { required: true, content: jsonContent(ref(`${aspectName}Request`)) },
        responses: { ...writeAnswers, ...errorResponses(400, 401, 403, 404, 422) },
      }),
      ...(supportsPatch(aspect)
        ? {
            patch: aspectOp('patch', `Patch ${aspect}`, {
              parameters: [ASYNC(false), SYSTEM_METADATA],
              requestBody: {
                required: true,
                content: { ...jsonContent(PATCH_SCHEMA), 'application/json-patch+json': { schema: PATCH_SCHEMA } },
              },
              responses: { ...writeAnswers, ...errorResponses(400, 401, 403, 404, 422) },
            }),
          }
        : {}),
      delete: aspectOp('delete', `Delete ${aspect}`, { responses: { 200: answer('Deleted'), ...errorResponses(400, 401, 403, 404) } }),
    };
  }
  return paths;
}

const COMMON_SCHEMAS: Record<string, JsonSchema> = {
  Error: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
  AuditStamp: {
    type: 'object',
    required: ['time', 'actor'],
    properties: { time: { type: 'integer', format: 'int64' }, actor: { type: 'string' } },
  },
  SystemMetadata: {
    type: 'object',
    properties: {
      lastObserved: { type: 'integer', format: 'int64' },
      runId: { type: 'string' },
      lastRunId: { type: 'string' },
      pipelineName: { type: 'string' },
      registryName: { type: 'string' },
      registryVersion: { type: 'string' },
      properties: { type: 'object', additionalProperties: { type: 'string' } },
      version: { type: 'string' },
      aspectCreated: ref('AuditStamp'),
      aspectModified: ref('AuditStamp'),
    },
  },
  Headers: {
    type: 'object',
    description: 'Conditional write headers: If-None-Match (*), If-Version-Match (a version)',
    additionalProperties: { type: 'string' },
  },
  PatchOperation: {
    type: 'object',
    required: ['op', 'path'],
    properties: {
      op: { type: 'string', enum: ['add', 'remove', 'replace', 'test', 'move', 'copy'] },
      path: { type: 'string' },
      value: {},
      from: { type: 'string' },
    },
  },
  ScrollRequest: {
    type: 'object',
    properties: {
      entities: { type: 'array', items: { type: 'string', enum: ENTITY_SPECS.map((e) => e.name) } },
      aspects: { type: 'array', items: { type: 'string' } },
    },
  },
  ScrollResult: {
    type: 'object',
    required: ['entities'],
    properties: {
      entities: {
        type: 'array',
        items: { type: 'object', required: ['urn'], properties: { urn: { type: 'string' } }, additionalProperties: true },
      },
      scrollId: { type: 'string' },
    },
  },
};

/** The OpenAPI 3 document of the entity API, generated from the registry and the aspect shapes. */
export function buildApiDocument() {
  return {
    openapi: '3.0.3',
    info: {
      title: 'mds entity API (DataHub OpenAPI v3)',
      version: 'v3',
      description: 'Generated from the entity registry and the aspect shapes of this server.',
    },
    security: [{ bearerAuth: [] }],
    paths: {
      ...Object.assign({}, ...ENTITY_SPECS.map(entityPaths)),
      [`${ENTITY_PATH}/scroll`]: {
        post: {
          tags: ['Generic Entities'],
          operationId: 'scrollEntities',
          summary: 'Scroll entities of several types',
          parameters: [
            query('count', { type: 'integer', default: 10, minimum: 0 }, 'Page size'),
            query('query', { type: 'string', default: '*' }, 'Search words (each a prefix); * for all'),
            query('scrollId', { type: 'string' }, 'The scrollId of the previous page'),
            SYSTEM_METADATA,
          ],
          requestBody: { content: jsonContent(ref('ScrollRequest')) },
          responses: { 200: answer('A page of entities', ref('ScrollResult')), ...errorResponses(400, 401) },
        },
      },
      ...v1Paths(),
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([code, description]) => [`Error${code}`, answer(description, ref('Error'))]),
      ),
      schemas: { ...COMMON_SCHEMAS, ...V1_SCHEMAS, ...aspectComponents(), ...Object.assign({}, ...ENTITY_SPECS.map(entityComponents)) },
    },
  };
}

/** The document as JSON and YAML text, built once per process on first use (the registry never changes in one). */
let texts: { json: string; yaml: string } | undefined;
function documentTexts() {
  if (texts) return texts;
  const document = buildApiDocument();
  texts = { json: JSON.stringify(document), yaml: stringify(document, { aliasDuplicateObjects: false }) };
  return texts;
}

/** `/openapi/v3/api-docs` (JSON) and `/openapi/v3/api-docs.yaml`. */
export const apiDocsRoutes = (): OpenApiRoute[] => [
  {
    method: 'GET',
    path: API_DOCS_PATH,
    respond: () => ({ status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, text: documentTexts().json }),
  },
  {
    method: 'GET',
    path: `${API_DOCS_PATH}.yaml`,
    respond: () => ({ status: 200, headers: { 'content-type': 'application/yaml; charset=utf-8' }, text: documentTexts().yaml }),
  },
];
