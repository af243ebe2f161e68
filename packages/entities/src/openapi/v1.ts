import { aspectSpec, findEntity, isJsonObject, type EntitySpec } from '@mds/core';
import { badRequest, unprocessable } from '@mds/schema';
import type { ChangeType, EntityService } from '../service';
import { authorizeDelete } from './deletes';
import { isTimeseries, readEntities } from './entity-object';
import { readerOf } from './reads';
import { aspectsAsked, arrayBody, entityOfUrn, flag, integer, list, urnOf } from './request';
import type { OpenApiRoute } from './route';
import { aspectFromTyped, aspectToTyped, simpleName } from './typed-values';
import { aspectWrite, ingest } from './writes';

// The v1 calls of DataHub's OpenAPI usage guide (docs/api/openapi/openapi-usage-guide.md): entities (UPSERT or
// CREATE_ENTITY of aspects in the `__type` form, the latest aspects, soft or hard delete) and relationships.
export const ENTITIES_V1_PATH = '/openapi/entities/v1';
export const RELATIONSHIPS_V1_PATH = '/openapi/relationships/v1';

/** `urns` of a v1 call (repeatable; never comma-split, URNs hold commas), all of one entity type as DataHub requires. */
function urnsParameter(query: URLSearchParams): { urns: string[]; entity: EntitySpec } {
  const urns = query.getAll('urns').filter(Boolean);
  if (!urns.length) throw badRequest("Parameter 'urns' is required: one or more entity URNs");
  const entities = [...new Set(urns.map(entityOfUrn))];
  if (entities.length > 1)
    throw badRequest(`Parameter 'urns' supports a single entity type per request, got: ${entities.map((e) => e.name).join(', ')}`);
  return { urns: [...new Set(urns)], entity: entities[0]! };
}

/** One item of a v1 POST: `{entityType, entityUrn, aspectName?, aspect: {__type, ...}}` as an aspect write. */
function v1Write(raw: unknown, index: number, changeType: ChangeType) {
  if (!isJsonObject(raw)) throw badRequest(`Item ${index} of the request body must be an object {"entityType", "entityUrn", "aspect"}`);
  const { entityType, entityUrn, aspectName, aspect } = raw;
  if (typeof entityType !== 'string') throw badRequest(`Item ${index}: entityType must be a string`);
  if (typeof entityUrn !== 'string') throw badRequest(`Item ${index}: entityUrn must be a string`);
  const entity = findEntity(entityType);
  if (!entity) throw unprocessable(`Unknown entity: ${entityType}`);
  const urn = urnOf(entityUrn, entity);
  if (!isJsonObject(aspect)) throw badRequest(`Item ${index}: aspect must be the aspect value, a JSON object`);
  const name =
    typeof aspectName === 'string' ? aspectName : entity.aspects.find((a) => simpleName(aspectSpec(a)!.pdlClass) === aspect.__type);
  if (name === undefined)
    throw badRequest(`Item ${index}: aspectName is missing and aspect.__type (${String(aspect.__type)}) names no aspect of ${entity.name}`);
  return aspectWrite(urn, entity, name, { value: aspectFromTyped(name, aspect) }, changeType, index);
}

/** `/openapi/entities/v1/` and `/openapi/relationships/v1/`, each with and without the trailing slash. */
export function v1Routes(service: EntityService): OpenApiRoute[] {
  const routes: OpenApiRoute[] = [
    {
      method: 'POST',
      path: ENTITIES_V1_PATH,
      bulk: true,
      // As Rest.li's bulk actions: a slot and the bulk body limit only for a caller who may write any entity by its role.
      admit: (actor) => service.mayIngestInBulk(actor),
      async respond({ actor }, { query, body }) {
        const changeType = flag(query, 'createEntityIfNotExists', false)
          ? 'CREATE_ENTITY'
          : flag(query, 'createIfNotExists', false)
            ? 'CREATE'
            : 'UPSERT';
        const writes = arrayBody(body, 'aspects: [{"entityType": ..., "entityUrn": ..., "aspect": {"__type": ..., ...}}]').map(
          (raw, index) => v1Write(raw, index, changeType),
        );
        const written = await ingest(service, actor, writes, true, false);
        return { status: 200, body: written.map((object) => object.urn) };
      },
    },
    {
      method: 'GET',
      path: `${ENTITIES_V1_PATH}/latest`,
      async respond({ actor }, { query }) {
        const { urns, entity } = urnsParameter(query);
        const names = list(query, 'aspectNames');
        const aspects = names.length ? aspectsAsked(entity, names) : undefined;
        const found = await readEntities(
          readerOf(service, actor),
          urns.map((urn) => ({ urn, entity, aspects })),
          true,
        );
        const responses = Object.fromEntries(
          found.map(({ urn, ...items }) => [
            urn,
            {
              entityName: entity.name,
              urn,
              aspects: Object.fromEntries(Object.entries(items).map(([name, item]) => [name, v1Aspect(name, item)])),
            },
          ]),
        );
        return { status: 200, body: { responses } };
      },
    },
    {
      method: 'DELETE',
      path: ENTITIES_V1_PATH,
      async respond({ actor }, { query }) {
        const { urns, entity } = urnsParameter(query);
        const soft = flag(query, 'soft', true);
        const grant = await authorizeDelete(service, actor, urns);
        const reader = service.reader(actor, { api: 'search' });
        const existing = await Promise.all(urns.map((urn) => reader.exists(urn, { includeSoftDeleted: true })));
        const present = urns.filter((_, i) => existing[i]);
        // Soft: the status aspect says removed (through ingestion, so written like any other aspect); hard: every row.
        if (soft)
          await ingest(
            service,
            actor,
            present.map((urn, index) => aspectWrite(urn, entity, 'status', { value: { removed: true } }, 'UPSERT', index)),
            true,
            false,
          );
        else for (const urn of present) await service.deleteEntity(grant, urn);
        return {
          status: 200,
          body: urns.map((urn, i) => ({
            rowsRolledBack: existing[i] ? [{ urn }] : [],
            rowsDeletedFromEntityDeletion: existing[i] ? 1 : 0,
          })),
        };
      },
    },
    {
      method: 'GET',
      path: RELATIONSHIPS_V1_PATH,
      async respond({ actor }, { query }) {
        const urn = query.get('urn');
        if (!urn) throw badRequest("Parameter 'urn' is required");
        entityOfUrn(urn);
        const types = list(query, 'relationshipTypes');
        if (!types.length) throw badRequest("Parameter 'relationshipTypes' is required: one or more relationship types, e.g. DownstreamOf");
        const direction = query.get('direction');
        if (direction !== 'INCOMING' && direction !== 'OUTGOING')
          throw badRequest(`Parameter 'direction' must be INCOMING or OUTGOING, got: ${direction ?? 'nothing'}`);
        const start = integer(query, 'start', 0, 0, 1e9);
        const count = integer(query, 'count', 200, 0, 10_000);
        const { total, relationships } = await readerOf(service, actor).relationships(urn, { direction, types, start, count });
        return {
          status: 200,
          body: {
            start,
            count: relationships.length,
            total,
            entities: relationships.map((r) => ({ relationshipType: r.type, urn: r.entity })),
          },
        };
      },
    },
  ];
  return routes.flatMap((route) => [route, { ...route, path: `${route.path}/` }]);
}

/** An aspect of a v1 answer: DataHub's `{name, type, version, value, created}`, the value in the `__type` form. */
function v1Aspect(name: string, item: unknown) {
  const { value, auditStamp } = item as { value: unknown; auditStamp?: unknown };
  return {
    name,
    type: isTimeseries(name) ? 'TIMESERIES' : 'VERSIONED',
    version: 0,
    value: aspectToTyped(name, aspectSpec(name)!.pdlClass, value),
    ...(auditStamp ? { created: auditStamp } : {}),
  };
}
