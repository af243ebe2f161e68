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

/** A `@Relationship` annotation's paths split into segments, once per annotation (every write of its aspect walks them). */
interface SplitPaths {
  readonly path: readonly string[];
  readonly siblings: readonly (readonly [field: SiblingField, segments: readonly string[]])[];
}
type SiblingField = 'createdOn' | 'createdActor' | 'updatedOn' | 'updatedActor' | 'properties' | 'via';
const SIBLING_FIELDS: readonly SiblingField[] = ['createdOn', 'createdActor', 'updatedOn', 'updatedActor', 'properties', 'via'];
const segmentsOf = (pattern: string) => pattern.split('/').filter(Boolean);
const SPLIT = new WeakMap<RelationshipData, SplitPaths>();
function splitPaths(spec: RelationshipData): SplitPaths {
  let split = SPLIT.get(spec);
  if (!split) {
    const siblings = SIBLING_FIELDS.flatMap((field) => (spec[field] === undefined ? [] : [[field, segmentsOf(spec[field])] as const]));
    SPLIT.set(spec, (split = { path: segmentsOf(spec.path), siblings }));
  }
  return split;
}

/**
 * Visits the values at a path of `*`-wildcards (array items, map values) from segment `from` on, with the concrete
 * path and the keys the `*`s took so far (`keys` is the caller's, to copy when kept).
 */
function visitValuesAt(
  value: unknown,
  segments: readonly string[],
  from: number,
  at: string,
  keys: string[],
  visit: (found: unknown, path: string, keys: string[]) => void,
): void {
  if (from === segments.length) return visit(value, at, keys);
  const head = segments[from]!;
  if (head === '*') {
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        keys.push(String(i));
        visitValuesAt(value[i], segments, from + 1, `${at}/${i}`, keys, visit);
        keys.pop();
      }
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        keys.push(key);
        visitValuesAt(value[key], segments, from + 1, `${at}/${key}`, keys, visit);
        keys.pop();
      }
    }
  } else if (isObject(value) && Object.hasOwn(value, head)) {
    visitValuesAt(value[head], segments, from + 1, `${at}/${head}`, keys, visit);
  }
}

/** The value at an annotation's sibling path (`upstreams/*\/created/time`), its `*`s taking the keys the edge took. */
function sibling(value: unknown, segments: readonly string[], keys: readonly string[]): unknown {
  let wildcard = 0;
  let current = value;
  for (const segment of segments) {
    const key = segment === '*' ? keys[wildcard++] : segment;
    if (key === undefined) return undefined;
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return undefined;
  }
  return current;
}

/** Whether a sibling field's value has the type the edge keeps (numbers for times, strings for actors and via). */
function kept(field: SiblingField, found: unknown): boolean {
  if (field === 'createdOn' || field === 'updatedOn') return typeof found === 'number';
  if (field === 'properties') return isObject(found);
  return typeof found === 'string';
}

function edgesOf(spec: RelationshipData, value: unknown, edges: AspectRelationship[]): void {
  const split = splitPaths(spec);
  visitValuesAt(value, split.path, 0, '', [], (destination, path, keys) => {
    if (typeof destination !== 'string') return;
    const edge: Record<string, unknown> = {
      type: spec.name,
      destination,
      path,
      entityTypes: spec.entityTypes,
      isLineage: spec.isLineage,
      isUpstream: spec.isUpstream,
    };
    for (const [field, segments] of split.siblings) {
      const found = sibling(value, segments, keys);
      if (kept(field, found)) edge[field] = found;
    }
    edges.push(edge as unknown as AspectRelationship);
  });
}

/**
 * The relationships an aspect value declares: every string at every `@Relationship` path of the aspect's record
 * (array items and map values included), in the model's order. [] for an aspect the registry lacks.
 */
export function relationshipsOf(aspectName: string, value: unknown): AspectRelationship[] {
  const edges: AspectRelationship[] = [];
  for (const spec of MODEL.aspects[aspectName]?.relationships ?? []) edgesOf(spec, value, edges);
  return edges;
}

/** The relationship fields of an aspect (name, path, destination entity types), as the model declares them. */
export const relationshipFieldsOf = (aspectName: string): readonly RelationshipData[] => MODEL.aspects[aspectName]?.relationships ?? [];
