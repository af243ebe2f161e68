import { isJsonObject } from '@mds/core';
import { entityRef } from '../typenames';
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

export type Json = Record<string, unknown>;

/** What a rule knows besides the value it reads: the entity the aspect belongs to. */
export interface Scope {
  /** The urn of the entity whose aspect is being answered (an association's `associatedUrn`). */
  readonly urn: string;
  readonly schema: GraphQLSchema;
  readonly rules: TypeRules;
  /** The GraphQL object of an entity an urn names: `entityRef` unless given (one that also says what its urn says). */
  readonly ref?: (urn: string) => Json | undefined;
}

/**
 * How one field of a GraphQL type is read from the stored value of its parent: the name of the value's key it comes
 * from (`'typeUrn'`), or a function giving the raw value (which is then converted to the field's GraphQL type).
 */
export type FieldRule = string | ((value: Json, scope: Scope) => unknown);
/** The fields of GraphQL types whose stored value has another name or shape than the field (DataHub's mappers). */
export type TypeRules = Readonly<Record<string, Readonly<Record<string, FieldRule>>>>;

/**
 * A value that belongs to another entity than the one being answered (a chart's input field is a field of a dataset):
 * what a rule returns so that the value is converted with that entity's urn as its scope (`associatedUrn`, urns
 * built from the owner's).
 */
export class OfEntity {
  constructor(
    readonly urn: string,
    readonly value: unknown,
  ) {}
}

/**
 * Converts a stored value (an aspect's JSON, or a part of it) to what a GraphQL field of `type` answers, led by the
 * type itself, the way DataHub's mappers copy a PDL record into its GraphQL counterpart:
 * - a record becomes an object with each field of the GraphQL type read from the key of the same name (or as the
 *   type's rules say); a PDL union member (`{"com.linkedin.….X": {…}}`) is unwrapped;
 * - an urn where the type is an entity (or an interface/union of entities) becomes that entity, whose own fields then
 *   resolve through its declared mapping;
 * - a map becomes a list of `{ key, value }` entries where the GraphQL list is of such entries (`customProperties`);
 * - a time stamp (`{ time, actor }`) becomes its `time` where the GraphQL type is a number;
 * - an enum value DataHub's GraphQL does not know, or a value of the wrong kind, answers null.
 * Absent data answers as DataHub's mappers do: null, or for a non-null field an empty list, `false`, `0`, `""` or an
 * empty object; never an error.
 */
export function toGraphQL(value: unknown, type: GraphQLOutputType, scope: Scope): unknown {
  if (value instanceof OfEntity) return toGraphQL(value.value, type, { ...scope, urn: value.urn });
  if (isNonNullType(type)) {
    const inner = type.ofType;
    return toGraphQL(value, inner, scope) ?? emptyOf(inner, scope);
  }
  if (isListType(type)) {
    const item = type.ofType;
    const items = Array.isArray(value) ? value : isJsonObject(value) && isEntryType(getNamedType(item)) ? entries(value) : undefined;
    if (!items) return null;
    const converted = items.map((x) => toGraphQL(x, item, scope));
    return isNonNullType(item) ? converted.filter((x) => x !== null && x !== undefined) : converted;
  }
  return fromNamed(value, type, scope);
}

function fromNamed(value: unknown, type: GraphQLNamedType, scope: Scope): unknown {
  if (value === undefined || value === null) return null;
  if (isScalarType(type)) return scalar(value, type.name);
  if (isEnumType(type)) return typeof value === 'string' && type.getValue(value) ? value : null;
  if (typeof value === 'string') {
    // An urn where an entity is expected: the entity, when its GraphQL type fits here.
    const ref = scope.ref ? scope.ref(value) : entityRef(value);
    if (!ref) return null;
    if (isObjectType(type)) return ref.__typename === type.name ? ref : null;
    const member = typeof ref.__typename === 'string' ? scope.schema.getType(ref.__typename) : undefined;
    return member && isObjectType(member) && scope.schema.isSubType(type as never, member) ? ref : null;
  }
  if (!isJsonObject(value)) return null;
  const record = unwrapUnion(value);
  if (isObjectType(type)) return isEntityType(type) ? null : objectOf(record.value, type, scope);
  // An interface or union fed a record: the member a rule named (`__typename`), or the one the PDL union names
  // (`…StringType` → the member `StringType`).
  const named = typeof record.value.__typename === 'string' ? record.value.__typename : record.member;
  if (named) {
    const member = scope.schema.getType(named);
    if (member && isObjectType(member) && scope.schema.isSubType(type as never, member)) return objectOf(record.value, member, scope);
  }
  return null;
}

/**
 * An object of a GraphQL object type from a record: each field from the key of its name, or by the type's rule. A
 * non-null field that has no answer (an owner urn that is no user or group) makes the object absent — dropped from
 * its list, or null where it may be — rather than an error for the whole answer.
 */
function objectOf(value: Json, type: GraphQLObjectType, scope: Scope): Json | null {
  const rules = scope.rules[type.name];
  const out: Json = { __typename: type.name };
  for (const field of Object.values(type.getFields())) {
    if (field.args.length > 0 && !rules?.[field.name]) continue; // a field with arguments has a resolver of its own
    const rule = rules?.[field.name];
    let raw = rule === undefined ? value[field.name] : typeof rule === 'string' ? value[rule] : rule(value, scope);
    if (raw === undefined && field.name === 'associatedUrn') raw = scope.urn;
    const answer = toGraphQL(raw, field.type, scope);
    if ((answer === null || answer === undefined) && isNonNullType(field.type)) return null;
    out[field.name] = answer;
  }
  return out;
}

function scalar(value: unknown, name: string): unknown {
  switch (name) {
    case 'Boolean':
      return typeof value === 'boolean' ? value : null;
    case 'Int':
    case 'Float':
    case 'Long': {
      const n = isJsonObject(value) ? value.time : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) return null;
      return name === 'Int' ? Math.trunc(n) : n;
    }
    case 'String':
    case 'ID':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
    default:
      return value;
  }
}

/** What a non-null field answers when nothing is stored for it. */
function emptyOf(type: GraphQLOutputType, scope: Scope): unknown {
  if (isListType(type)) return [];
  if (isScalarType(type)) {
    if (type.name === 'Boolean') return false;
    if (type.name === 'String' || type.name === 'ID') return '';
    return 0;
  }
  if (isObjectType(type) && !isEntityType(type)) return objectOf({}, type, scope);
  return null;
}

/** `{ "com.linkedin.schema.StringType": {} }` → the member's name and value; any other record as it is. */
function unwrapUnion(value: Json): { value: Json; member?: string } {
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.includes('.') && isJsonObject(value[keys[0]!])) {
    return { value: value[keys[0]!] as Json, member: keys[0]!.split('.').pop() };
  }
  return { value };
}

const isEntityType = (type: GraphQLObjectType) => type.getInterfaces().some((i) => i.name === 'Entity');
const isEntryType = (type: GraphQLNamedType) => isObjectType(type) && 'key' in type.getFields() && 'value' in type.getFields();
const entries = (map: Json) => Object.entries(map).map(([key, value]) => ({ key, value }));
