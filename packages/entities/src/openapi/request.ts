import { UrnError, findEntity, isJsonObject, parseEntityUrn, type EntitySpec } from '@mds/core';
import { badRequest, notFound } from '@mds/schema';

/** `{entityName}` of a path: a registry name, any case (404 when unknown, as DataHub's registry lookup). */
export function entityNamed(name: string): EntitySpec {
  const entity = findEntity(name);
  if (!entity) throw notFound(`Unknown entity: ${name}`);
  return entity;
}

function urnType(text: string): string {
  try {
    return parseEntityUrn(text).entityType;
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn! ${error.message}`);
    throw error;
  }
}

/** The registry entity of any URN (`Invalid urn!` 400 when it is not one, or of no entity type mds knows). */
export function entityOfUrn(text: string): EntitySpec {
  const type = urnType(text);
  const entity = findEntity(type);
  if (!entity) throw badRequest(`Invalid urn! ${text}: unknown entity type ${type}`);
  return entity;
}

/** A URN of a path or a body, of `entity`'s type: DataHub's `Invalid urn!` 400, with the reason. */
export function urnOf(text: string, entity: EntitySpec): string {
  const type = urnType(text);
  if (type !== entity.name) throw badRequest(`Invalid urn! ${text} is not a ${entity.name} urn (its entity type is ${type})`);
  return text;
}

/** The entity's aspect by name, any case as DataHub matches it; undefined when the entity has none such. */
export function aspectNamed(entity: EntitySpec, name: string): string | undefined {
  const lower = name.toLowerCase();
  return entity.aspects.find((aspect) => aspect.toLowerCase() === lower);
}

export const unknownAspect = (entity: EntitySpec, name: string) => `Unknown aspect ${name} for entity ${entity.name}`;

/** A boolean query parameter (`true`/`false`, any case), or the 400 naming it. */
export function flag(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  if (/^true$/i.test(text)) return true;
  if (/^false$/i.test(text)) return false;
  throw badRequest(`Parameter '${name}' must be true or false, got: ${text}`);
}

/** An integer query parameter within [min, max], or the 400 naming it. */
export function integer(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const text = query.get(name);
  if (text === null || text === '') return fallback;
  const value = /^-?\d{1,12}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw badRequest(`Parameter '${name}' must be an integer from ${min} to ${max}, got: ${text}`);
  return value;
}

/** Every value of repeatable parameters, comma lists split (`aspects=a,b&aspects=c`), blanks dropped. */
export function list(query: URLSearchParams, ...names: string[]): string[] {
  return names
    .flatMap((name) => query.getAll(name))
    .flatMap((value) => value.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** Aspect names asked for (`aspects`, older `aspectNames`) as the entity names them; a name it lacks is a 400. */
export function aspectsAsked(entity: EntitySpec, names: readonly string[]): string[] {
  return names.map((name) => {
    const aspect = aspectNamed(entity, name);
    if (!aspect) throw badRequest(unknownAspect(entity, name));
    return aspect;
  });
}

/** A JSON array body, or the 400 saying what was expected. */
export function arrayBody(body: unknown, what: string): unknown[] {
  if (!Array.isArray(body)) throw badRequest(`The request body must be a JSON array of ${what}`);
  return body;
}

/** A JSON object body, or the 400 saying what was expected. */
export function objectBody(body: unknown, what: string): Record<string, unknown> {
  if (!isJsonObject(body)) throw badRequest(`The request body must be a JSON object: ${what}`);
  return body;
}

/** An item of a batch body: an object with its `urn` (DataHub: 400 ``Missing `urn` field``). */
export function batchItem(item: unknown, index: number, entity: EntitySpec): { urn: string; fields: Record<string, unknown> } {
  if (!isJsonObject(item)) throw badRequest(`Item ${index} of the request body must be an object with a urn and its aspects`);
  if (item.urn === undefined) throw badRequest('Missing `urn` field');
  if (typeof item.urn !== 'string') throw badRequest(`Item ${index}: urn must be a string`);
  return { urn: urnOf(item.urn, entity), fields: item };
}
