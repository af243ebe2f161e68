import { isJsonObject, type EntitySpec } from '@mds/core';
import { badRequest, unprocessable, type Actor } from '@mds/schema';
import type { ChangeType, EntityService, PlacedProposal } from '../service';
import { aspectItem, isTimeseries, type EntityObject } from './entity-object';
import { ENTITY_PATH, readerOf } from './reads';
import { aspectNamed, arrayBody, batchItem, entityNamed, flag, objectBody, unknownAspect, urnOf } from './request';
import type { OpenApiRoute } from './route';

/** One aspect to write, as the body gave it. */
export interface AspectWrite {
  urn: string;
  entity: EntitySpec;
  aspect: string;
  changeType: ChangeType;
  /** The aspect value, or for PATCH the patch (`{patch, arrayPrimaryKeys?}` or an op array). */
  value: unknown;
  systemMetadata?: unknown;
  headers?: unknown;
  /** Where it sits in the body, for error messages: `[2].globalTags` in a batch. */
  place: string;
}

/** `{value, systemMetadata?, headers?}` of a body, checked enough that ingestion's own errors are about the values. */
export function aspectWrite(
  urn: string,
  entity: EntitySpec,
  name: string,
  raw: unknown,
  changeType: ChangeType,
  index?: number,
): AspectWrite {
  const aspect = aspectNamed(entity, name);
  if (!aspect) throw unprocessable(unknownAspect(entity, name));
  const where = `${urn} ${aspect}`;
  if (!isJsonObject(raw)) throw badRequest(`${where}: expected {"value": {...}, "systemMetadata"?: {...}, "headers"?: {...}}`);
  const { value, systemMetadata, headers } = raw;
  if (changeType === 'PATCH') {
    if (!Array.isArray(value) && !(isJsonObject(value) && Array.isArray(value.patch))) throw badRequest('Missing `patch` field.');
  } else if (!isJsonObject(value)) {
    throw badRequest(`${where}: "value" must be the aspect, a JSON object`);
  }
  if (systemMetadata !== undefined && systemMetadata !== null && !isJsonObject(systemMetadata))
    throw badRequest(`${where}: "systemMetadata" must be an object`);
  if (headers !== undefined && headers !== null && !(isJsonObject(headers) && Object.values(headers).every((v) => typeof v === 'string'))) {
    throw badRequest(`${where}: "headers" must be a map of strings`);
  }
  // A time-series point has no "already exists": CREATE and CREATE_ENTITY are plain writes of a point.
  const place = index === undefined ? aspect : `[${index}].${aspect}`;
  return { urn, entity, aspect, changeType: isTimeseries(aspect) ? 'UPSERT' : changeType, value, systemMetadata, headers, place };
}

/** The MetadataChangeProposal of one write, as DataHub's controller builds it. */
function proposal(write: AspectWrite): PlacedProposal {
  const patch = write.changeType === 'PATCH';
  return {
    proposal: {
      entityType: write.entity.name,
      entityUrn: write.urn,
      changeType: write.changeType,
      aspectName: write.aspect,
      aspect: { contentType: patch ? 'application/json-patch+json' : 'application/json', value: JSON.stringify(write.value) },
      ...(write.systemMetadata ? { systemMetadata: write.systemMetadata } : {}),
      ...(write.headers ? { headers: write.headers } : {}),
    },
    place: { action: 'openapi', path: write.place },
  };
}

/**
 * Writes through the service's ingestion (its checks, EDIT_ENTITY on every urn, all or nothing), then answers each
 * entity with the aspects written as now stored; a time-series point as sent.
 */
export async function ingest(
  service: EntityService,
  actor: Actor,
  writes: readonly AspectWrite[],
  batch: boolean,
  withSystemMetadata: boolean,
) {
  await service.ingest(actor, writes.map(proposal), { batch });
  const versioned = writes.filter((w) => !isTimeseries(w.aspect));
  const urns = [...new Set(versioned.map((w) => w.urn))];
  const stored = await readerOf(service, actor).latest(urns, [...new Set(versioned.map((w) => w.aspect))]);
  const objects = new Map<string, EntityObject>();
  for (const write of writes) {
    const object = objects.get(write.urn) ?? { urn: write.urn };
    objects.set(write.urn, object);
    const value = stored.get(write.urn)?.get(write.aspect);
    if (value) object[write.aspect] = aspectItem(value, withSystemMetadata);
    else if (isTimeseries(write.aspect)) object[write.aspect] = { value: write.value };
  }
  return [...objects.values()];
}

/**
 * The status of a write's answer: `async=true` 202 (mds has still written everything when it answers), `false` 200.
 * Read before writing, so that a bad value is refused with nothing written.
 */
const writeStatus = (query: URLSearchParams, asyncDefault: boolean) => (flag(query, 'async', asyncDefault) ? 202 : 200);

/** POST and PATCH of entities and aspects (entities-api §8). */
export function writeRoutes(service: EntityService): OpenApiRoute[] {
  /** A batch body: `[{urn, <aspect>: {value, systemMetadata?, headers?}}]`. */
  const batchWrites = (entityName: string, body: unknown, changeType: ChangeType) => {
    const entity = entityNamed(entityName);
    return arrayBody(body, 'entities: [{"urn": ..., "<aspect>": {"value": {...}}}]').flatMap((raw, index) => {
      const { urn, fields } = batchItem(raw, index, entity);
      return Object.entries(fields)
        .filter(([key]) => key !== 'urn')
        .map(([name, item]) => aspectWrite(urn, entity, name, item, changeType, index));
    });
  };
  const batchRoute = (method: 'POST' | 'PATCH', changeType: ChangeType): OpenApiRoute => ({
    method,
    path: `${ENTITY_PATH}/{entityName}`,
    bulk: true,
    // As Rest.li's bulk actions: a slot and the bulk body limit only for a caller who may write any entity by its role.
    admit: (actor) => service.mayIngestInBulk(actor),
    async respond({ actor }, { params, query, body }) {
      const status = writeStatus(query, true);
      const writes = batchWrites(params.entityName!, body, changeType);
      return { status, body: await ingest(service, actor, writes, true, flag(query, 'systemMetadata', false)) };
    },
  });
  /** The single aspect of a `/{entityName}/{urn}/{aspect}` path with its body. */
  const pathWrite = (params: Record<string, string>, body: unknown, changeType: ChangeType) => {
    const entity = entityNamed(params.entityName!);
    const urn = urnOf(params.urn!, entity);
    return aspectWrite(urn, entity, params.aspect!, body, changeType);
  };

  return [
    batchRoute('POST', 'UPSERT'),
    batchRoute('PATCH', 'PATCH'),
    {
      method: 'POST',
      path: `${ENTITY_PATH}/{entityName}/{urn}/{aspect}`,
      async respond({ actor }, { params, query, body }) {
        // DataHub's defaults: CREATE (an existing aspect is refused), CREATE_ENTITY when asked, UPSERT when neither.
        const changeType = flag(query, 'createIfEntityNotExists', false)
          ? 'CREATE_ENTITY'
          : flag(query, 'createIfNotExists', true)
            ? 'CREATE'
            : 'UPSERT';
        const status = writeStatus(query, false);
        const write = pathWrite(params, objectBody(body, '{"value": {...}, "systemMetadata"?: {...}}'), changeType);
        const [object] = await ingest(service, actor, [write], false, flag(query, 'systemMetadata', false));
        return { status, body: object };
      },
    },
    {
      method: 'PATCH',
      path: `${ENTITY_PATH}/{entityName}/{urn}/{aspect}`,
      async respond({ actor }, { params, query, body }) {
        if (!Array.isArray(body) && !isJsonObject(body))
          throw badRequest('The request body must be a JSON object {"patch": [...], "arrayPrimaryKeys"?: {...}} or an array of operations');
        const status = writeStatus(query, false);
        const write = pathWrite(params, { value: body }, 'PATCH');
        const [object] = await ingest(service, actor, [write], false, flag(query, 'systemMetadata', false));
        return { status, body: object };
      },
    },
  ];
}
