import { MODEL } from './model/data';
import type { RelationshipData } from './model/types';

/** One edge an aspect value declares, from a `@Relationship` field of DataHub's model. */
export interface AspectRelationship {
  /** The relationship name (`DownstreamOf`, `OwnedBy`, `IsPartOf`, …). */
  readonly type: string;
  /** The URN the field holds. */
  readonly destination: string;
  /** Where in the value: `/upstreams/0/dataset`. */
  readonly path: string;
  /** The entity types the model allows as destination. */
  readonly entityTypes: readonly string[];
  readonly isLineage: boolean;
  readonly isUpstream: boolean;
  /** Values read from the fields the annotation names for the same array item (`created/time` …), when present. */
  readonly createdOn?: number;
  readonly createdActor?: string;
  readonly updatedOn?: number;
  readonly updatedActor?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly via?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The values at a path of `*`-wildcards (array items, map values), with the concrete path and the keys `*` took. */
function* valuesAt(
  value: unknown,
  segments: readonly string[],
  at = '',
  keys: readonly string[] = [],
): Generator<[unknown, string, string[]]> {
  if (!segments.length) {
    yield [value, at, [...keys]];
    return;
  }
  const [head, ...rest] = segments as [string, ...string[]];
  if (head === '*') {
    if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* valuesAt(value[i], rest, `${at}/${i}`, [...keys, String(i)]);
    else if (isObject(value)) for (const key of Object.keys(value)) yield* valuesAt(value[key], rest, `${at}/${key}`, [...keys, key]);
  } else if (isObject(value) && Object.hasOwn(value, head)) {
    yield* valuesAt(value[head], rest, `${at}/${head}`, keys);
  }
}

/** The value at an annotation's sibling path (`upstreams/*\/created/time`), its `*`s taking the keys the edge took. */
function sibling(value: unknown, pattern: string | undefined, keys: readonly string[]): unknown {
  if (pattern === undefined) return undefined;
  let wildcard = 0;
  let current = value;
  for (const segment of pattern.split('/').filter(Boolean)) {
    const key = segment === '*' ? keys[wildcard++] : segment;
    if (key === undefined) return undefined;
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

function edgesOf(spec: RelationshipData, value: unknown): AspectRelationship[] {
  const edges: AspectRelationship[] = [];
  for (const [destination, path, keys] of valuesAt(value, spec.path.split('/').filter(Boolean))) {
    if (typeof destination !== 'string') continue;
    const createdOn = sibling(value, spec.createdOn, keys);
    const createdActor = sibling(value, spec.createdActor, keys);
    const updatedOn = sibling(value, spec.updatedOn, keys);
    const updatedActor = sibling(value, spec.updatedActor, keys);
    const properties = sibling(value, spec.properties, keys);
    const via = sibling(value, spec.via, keys);
    edges.push({
      type: spec.name,
      destination,
      path,
      entityTypes: spec.entityTypes,
      isLineage: spec.isLineage,
      isUpstream: spec.isUpstream,
      ...(typeof createdOn === 'number' ? { createdOn } : {}),
      ...(typeof createdActor === 'string' ? { createdActor } : {}),
      ...(typeof updatedOn === 'number' ? { updatedOn } : {}),
      ...(typeof updatedActor === 'string' ? { updatedActor } : {}),
      ...(isObject(properties) ? { properties } : {}),
      ...(typeof via === 'string' ? { via } : {}),
    });
  }
  return edges;
}

/**
 * The relationships an aspect value declares: every string at every `@Relationship` path of the aspect's record
 * (array items and map values included), in the model's order. [] for an aspect the registry lacks.
 */
export function relationshipsOf(aspectName: string, value: unknown): AspectRelationship[] {
  const specs = MODEL.aspects[aspectName]?.relationships ?? [];
  return specs.flatMap((spec) => edgesOf(spec, value));
}

/** The relationship fields of an aspect (name, path, destination entity types), as the model declares them. */
export const relationshipFieldsOf = (aspectName: string): readonly RelationshipData[] => MODEL.aspects[aspectName]?.relationships ?? [];
