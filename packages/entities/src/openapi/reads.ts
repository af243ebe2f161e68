import { ENTITY_SPECS, aspectSpec, findEntity, isJsonObject, type EntitySpec } from '@mds/core';
import type { SearchIndex } from '@mds/search';
import { badRequest, type Actor } from '@mds/schema';
import type { EntityReader, EntityService } from '../service';
import { aspectItem, isTimeseries, readAspect, readEntities, type EntityObject, type EntityRead } from './entity-object';
import { aspectNamed, aspectsAsked, arrayBody, batchItem, entityNamed, flag, integer, list, unknownAspect, urnOf } from './request';
import type { OpenApiRoute } from './route';
import { scrollPage } from './scroll';

export const ENTITY_PATH = '/openapi/v3/entity';

/** The reads of an OpenAPI caller (entities-api §11), refused with DataHub's OpenAPI text. */
export const readerOf = (service: EntityService, actor: Actor) =>
  service.reader(actor, { api: 'rest', denied: () => `${actor.urn} is unauthorized to READ entities.` });

/** DataHub's 404 of an absent entity or aspect: the `Not-Found-Reason: ENTITY` header (and mds says what is missing). */
const notFoundAnswer = (message: string) => ({ status: 404, headers: { 'not-found-reason': 'ENTITY' }, body: { error: message } });
const absent = { status: 404 };
const exists = { status: 204 };

/** `aspects` / `aspectNames` of a read: the entity's aspects named, undefined when none is. */
function askedAspects(entity: EntitySpec, query: URLSearchParams): string[] | undefined {
  const names = list(query, 'aspects', 'aspectNames');
  return names.length ? aspectsAsked(entity, names) : undefined;
}

/** The entity and urn of a `/{entityName}/{urn}` path. */
function pathEntity(params: Record<string, string>) {
  const entity = entityNamed(params.entityName!);
  return { entity, urn: urnOf(params.urn!, entity) };
}

/** One page of a scroll: the entity objects of the urns found, with the next page's scrollId. */
async function scrollAnswer(
  reader: EntityReader,
  search: SearchIndex,
  entities: readonly EntitySpec[],
  query: URLSearchParams,
  aspects: (entity: EntitySpec) => string[] | undefined,
) {
  const { hits, scrollId } = await scrollPage(search, entities, query);
  const reads = hits.flatMap((hit): EntityRead[] => {
    const entity = findEntity(hit.entityType);
    return entity ? [{ urn: hit.urn, entity, aspects: aspects(entity) }] : [];
  });
  const found = await readEntities(reader, reads, flag(query, 'systemMetadata', false));
  return { status: 200, body: { entities: found, ...(scrollId ? { scrollId } : {}) } };
}

/** GET and HEAD of entities and aspects, the entity list, batchGet and scroll (entities-api §8). */
export function readRoutes(service: EntityService, search: SearchIndex): OpenApiRoute[] {
  // Lists and scrolls answer what a search found, open to any authenticated caller as search is (entities-api §11).
  const searched = service.reader(undefined, { api: 'search' });
  return [
    {
      method: 'GET',
      path: `${ENTITY_PATH}/{entityName}/{urn}`,
      async respond({ actor }, { params, query }) {
        const { entity, urn } = pathEntity(params);
        const aspects = askedAspects(entity, query);
        const [object] = await readEntities(readerOf(service, actor), [{ urn, entity, aspects }], flag(query, 'systemMetadata', false));
        return object ? { status: 200, body: object } : notFoundAnswer(`Entity ${urn} not found`);
      },
    },
    {
      method: 'HEAD',
      path: `${ENTITY_PATH}/{entityName}/{urn}`,
      async respond({ actor }, { params, query }) {
        const { urn } = pathEntity(params);
        const includeSoftDeleted = flag(query, 'includeSoftDelete', false);
        return (await readerOf(service, actor).exists(urn, { includeSoftDeleted })) ? exists : absent;
      },
    },
    {
      method: 'GET',
      path: `${ENTITY_PATH}/{entityName}/{urn}/{aspect}`,
      async respond({ actor }, { params, query }) {
        const { entity, urn } = pathEntity(params);
        const aspect = aspectNamed(entity, params.aspect!);
        if (!aspect) return notFoundAnswer(unknownAspect(entity, params.aspect!));
        const version = integer(query, 'version', 0, -1e12, 1e12);
        const item = await readAspect(readerOf(service, actor), { urn, entity, aspect }, version, flag(query, 'systemMetadata', false));
        if (item) return { status: 200, body: item };
        return notFoundAnswer(`Aspect ${aspect}${version ? ` version ${version}` : ''} of ${urn} not found`);
      },
    },
    {
      method: 'HEAD',
      path: `${ENTITY_PATH}/{entityName}/{urn}/{aspect}`,
      async respond({ actor }, { params, query }) {
        const { entity, urn } = pathEntity(params);
        const aspect = aspectNamed(entity, params.aspect!);
        const reader = readerOf(service, actor);
        if (!(await reader.exists(urn, { includeSoftDeleted: flag(query, 'includeSoftDelete', false) })) || !aspect) return absent;
        return (await readAspect(reader, { urn, entity, aspect }, 0, false)) ? exists : absent;
      },
    },
    {
      // Listing is open to any authenticated caller, as search is (entities-api §11).
      method: 'GET',
      path: `${ENTITY_PATH}/{entityName}`,
      respond(_context, { params, query }) {
        const entity = entityNamed(params.entityName!);
        const aspects = askedAspects(entity, query);
        return scrollAnswer(searched, search, [entity], query, () => aspects);
      },
    },
    {
      method: 'POST',
      path: `${ENTITY_PATH}/scroll`,
      respond(_context, { query, body }) {
        const asked = body === undefined ? {} : body;
        if (!isJsonObject(asked))
          throw badRequest('The request body must be a JSON object: {"entities": [<entity name>...], "aspects": [<aspect name>...]}');
        const entities = namesIn(asked, 'entities')?.map((name) => {
          const entity = findEntity(name);
          if (!entity) throw badRequest(`Unknown entity: ${name}`);
          return entity;
        });
        const aspects = namesIn(asked, 'aspects');
        const unknown = aspects?.find((name) => !aspectSpec(name) && !ENTITY_SPECS.some((e) => aspectNamed(e, name)));
        if (unknown !== undefined) throw badRequest(`Unknown aspect ${unknown}`);
        // Across entity types, an aspect applies to the entities that have it.
        const aspectsOf = (entity: EntitySpec) => aspects?.flatMap((name) => aspectNamed(entity, name) ?? []);
        return scrollAnswer(searched, search, entities?.length ? entities : ENTITY_SPECS, query, aspectsOf);
      },
    },
    {
      method: 'POST',
      path: `${ENTITY_PATH}/{entityName}/batchGet`,
      async respond({ actor }, { params, query, body }) {
        const entity = entityNamed(params.entityName!);
        const items = arrayBody(body, 'entities: [{"urn": ..., "<aspect>": {}}]').map((raw, index) => batchGetItem(raw, index, entity));
        const reader = readerOf(service, actor);
        const withSystemMetadata = flag(query, 'systemMetadata', false);
        const found = await readEntities(reader, items, withSystemMetadata);
        const byUrn = new Map(found.map((object) => [object.urn, object]));
        for (const item of items) {
          const object = byUrn.get(item.urn);
          if (object) await pinVersions(reader, object, item.versions, withSystemMetadata);
        }
        return { status: 200, body: found };
      },
    },
  ];
}

function namesIn(body: Record<string, unknown>, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw badRequest(`Field '${field}' must be an array of names`);
  return value as string[];
}

/** A batchGet item: its aspects (none named: all), and those pinned to a version by an `If-Version-Match` header. */
function batchGetItem(raw: unknown, index: number, entity: EntitySpec) {
  const { urn, fields } = batchItem(raw, index, entity);
  const names = Object.keys(fields).filter((key) => key !== 'urn');
  const aspects = aspectsAsked(entity, names);
  const versions = new Map<string, string>();
  names.forEach((name, i) => {
    const headers = (fields[name] as { headers?: unknown } | null)?.headers;
    if (headers === undefined) return;
    const version = isJsonObject(headers) ? headers['If-Version-Match'] : undefined;
    if (typeof version !== 'string' || !/^\d+$/.test(version))
      throw badRequest(`${urn} ${name}: headers must hold If-Version-Match, a version number as a string`);
    if (version !== '0') versions.set(aspects[i]!, version);
  });
  return { urn, entity, aspects: aspects.length ? aspects : undefined, versions };
}

/**
 * Replaces the latest value of each pinned aspect by the version whose `systemMetadata.version` is the one asked
 * (DataHub's If-Version-Match on reads); an aspect without that version is left out.
 */
async function pinVersions(reader: EntityReader, object: EntityObject, versions: ReadonlyMap<string, string>, withSystemMetadata: boolean) {
  for (const [aspect, version] of versions) {
    const all = isTimeseries(aspect) ? [] : await reader.versions(object.urn, aspect);
    const pinned = all.find((stored) => String(stored.systemMetadata?.version) === version);
    if (pinned) object[aspect] = aspectItem(pinned, withSystemMetadata);
    else delete object[aspect];
  }
}
