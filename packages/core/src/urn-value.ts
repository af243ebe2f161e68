import { MODEL } from './model/data';
import type { TypedUrnData, TypeRef } from './model/types';
import { splitTuple } from './urn';

/**
 * URNs inside aspect values, checked as DataHub's EntityRegistryUrnValidator checks every typeref named `…Urn`: the
 * text parses as a Pegasus `Urn`, its entity type is in the registry, its parts bind to that entity's key, a typed
 * URN (`DatasetUrn`) has its entity type and typed parts, and a `@Relationship` field names one of its entity types.
 * (The entity's own URN is checked more strictly by `parseUrn`.)
 */

export interface ValueUrn {
  readonly namespace: string;
  readonly entityType: string;
  readonly parts: readonly string[];
}

/** The key parts of `(a,b(c,d))` as Pegasus's TupleKey splits them, or a reason. */
function tupleParts(key: string): string[] | string {
  const tuple = key.startsWith('(') && key.endsWith(')');
  const parts = splitTuple(tuple ? key.slice(1, -1) : key);
  if (!parts || (!tuple && key.startsWith('('))) return 'mismatched paren nesting';
  if (!tuple) return [key];
  return parts.includes('') ? 'empty part disallowed' : parts;
}

const NAMESPACE = /^[a-z][a-z0-9-]{0,31}$/;
const WORD = /^[A-Za-z0-9_]+$/;

/** A URN as Pegasus's `Urn.createFromString` reads it (any namespace, any entity type), or why it is none. */
export function parseValueUrn(text: string): ValueUrn | string {
  if (!text.startsWith('urn:')) return `Urn doesn't start with 'urn:'. Urn: ${text}`;
  const second = text.indexOf(':', 5);
  if (second < 0) return `Missing second ':' char. Urn: ${text}`;
  const namespace = text.slice(4, second);
  if (!NAMESPACE.test(namespace)) return `Invalid Urn namespace. Urn: ${text}`;
  if (!/[a-z]/.test(text[second + 1] ?? '')) return `First char of entityType must be [a-z]! Urn: ${text}`;
  const third = text.indexOf(':', second + 2);
  if (third < 0) {
    const entityType = text.slice(second + 1);
    return WORD.test(entityType) ? { namespace, entityType, parts: [] } : `entityType must have only [a-zA-Z0-9] chars. Urn: ${text}`;
  }
  const entityType = text.slice(second + 1, third);
  if (!WORD.test(entityType)) return `entityType must have only [a-zA-Z_0-9] chars. Urn: ${text}`;
  const key = text.slice(third + 1);
  if (!key) return `Urns with empty entityKey are not allowed. Urn: ${text}`;
  const parts = tupleParts(key);
  return typeof parts === 'string' ? `${text}: ${parts}` : { namespace, entityType, parts };
}

/** Key field count of each entity type, by lower-cased name (DataHub's registry lookup ignores case). */
const KEY_SIZE = new Map(
  MODEL.entities.map((e) => {
    const key = MODEL.types[MODEL.aspects[e.keyAspect]!.class];
    return [e.name.toLowerCase(), key && 'record' in key ? key.record.length : 0] as const;
  }),
);

/** Why a key part is not of the type a typed URN names (a nested typed URN, an enum symbol), if it is not. */
function typedPartProblem(part: string, type: TypeRef): string | undefined {
  if (typeof type !== 'string' || type === 'string') return undefined;
  const data = MODEL.types[type];
  if (data && 'enum' in data) return data.enum.includes(part) ? undefined : `No enum constant ${type}.${part}`;
  if (data && 'typeref' in data && data.typedUrn) {
    const parsed = parseValueUrn(part);
    return typeof parsed === 'string' ? parsed : typedUrnProblem(parsed, data.typedUrn);
  }
  return undefined;
}

/** Why a URN is not of a typed URN class (namespace `li`, the class's entity type and parts), if it is not. */
export function typedUrnProblem(urn: ValueUrn, typed: TypedUrnData): string | undefined {
  if (urn.namespace !== 'li') return "Urn namespace type should be 'li'.";
  if (urn.entityType !== typed.entityType) return `Urn entity type should be '${typed.entityType}'.`;
  if (urn.parts.length !== typed.parts.length) return 'Invalid number of keys.';
  for (let i = 0; i < urn.parts.length; i++) {
    const problem = typedPartProblem(urn.parts[i]!, typed.parts[i]!);
    if (problem) return `Invalid URN Parameter: '${problem}`;
  }
  return undefined;
}

/**
 * The problem of a URN in an aspect value, as DataHub words it (`"Provided urn x" is invalid: …`), or undefined.
 * `typeName` is the typeref's full name; `destinations` the entity types of each `@Relationship` at its path.
 */
export function valueUrnProblem(
  text: string,
  typeName: string,
  typed: TypedUrnData | undefined,
  destinations: readonly (readonly string[])[],
  schemaPath: string,
): string | undefined {
  const invalid = (reason: string) => `"Provided urn ${text}" is invalid: ${reason}`;
  const urn = parseValueUrn(text);
  if (typeof urn === 'string') return invalid(urn);
  const keySize = KEY_SIZE.get(urn.entityType.toLowerCase());
  if (keySize === undefined) return invalid(`Entity type ${urn.entityType} is missing from entity registry`);
  if (keySize !== urn.parts.length) {
    return invalid(`Failed to convert urn to entity key: urns parts and key fields do not have same length for ${text}`);
  }
  if (typed && typedUrnProblem(urn, typed) !== undefined) {
    return invalid(`Unable to instantiate urn type: ${typeName.slice(typeName.lastIndexOf('.') + 1)} with urn: ${text}`);
  }
  for (const types of destinations) {
    if (!types.includes(urn.entityType)) {
      return invalid(`Entity type for urn: ${text} is not a valid destination for field path: ${schemaPath}`);
    }
  }
  return undefined;
}
