import { isJsonObject } from '@mds/core';
import { entityRef } from '../typenames';
import {
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type GraphQLUnionType,
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
 *
 * What a type asks for (its kind, its wrappers, an object type's fields) is worked out once per GraphQL type and kept
 * as a converter function: a dataset's answer converts thousands of values, and asking graphql-js's `is…Type`
 * predicates again for each of them was most of the cost.
 */
export function toGraphQL(value: unknown, type: GraphQLOutputType, scope: Scope): unknown {
  return converterOf(type)(value, scope);
}

type Converter = (value: unknown, scope: Scope) => unknown;

const converters = new WeakMap<GraphQLOutputType, Converter>();

function converterOf(type: GraphQLOutputType): Converter {
  let converter = converters.get(type);
  if (!converter) {
    converter = compile(type);
    converters.set(type, converter);
  }
  return converter;
}

/** A converter for `type`; the converters of the types inside it are looked up on first use (types are recursive). */
function compile(type: GraphQLOutputType): Converter {
  let convert: Converter;
  if (isNonNullType(type)) {
    const inner = type.ofType;
    let innerConverter: Converter | undefined;
    convert = (value, scope) => (innerConverter ??= converterOf(inner))(value, scope) ?? emptyOf(inner, scope);
  } else if (isListType(type)) {
    const item = type.ofType;
    const ofEntries = isEntryType(getNamedType(item));
    const dropEmpty = isNonNullType(item);
    let itemConverter: Converter | undefined;
    convert = (value, scope) => {
      const items = Array.isArray(value) ? value : ofEntries && isJsonObject(value) ? entries(value) : undefined;
      if (!items) return null;
      const convertItem = (itemConverter ??= converterOf(item));
      const converted = items.map((x) => convertItem(x, scope));
      return dropEmpty ? converted.filter((x) => x !== null && x !== undefined) : converted;
    };
  } else {
    convert = compileNamed(type);
  }
  // A value of another entity than the one being answered: converted with that entity as the scope.
  const self: Converter = (value, scope) =>
    value instanceof OfEntity ? self(value.value, { ...scope, urn: value.urn }) : convert(value, scope);
  return self;
}

function compileNamed(type: GraphQLNamedType): Converter {
  if (isScalarType(type)) {
    const name = type.name;
    return (value) => (value === undefined || value === null ? null : scalar(value, name));
  }
  if (isEnumType(type)) return (value) => (typeof value === 'string' && type.getValue(value) ? value : null);
  if (isObjectType(type)) {
    const entity = isEntityType(type);
    return (value, scope) => {
      if (typeof value === 'string') {
        // An urn where an entity is expected: the entity, when its GraphQL type is this one.
        const ref = refOf(value, scope);
        return ref && ref.__typename === type.name ? ref : null;
      }
      if (!isJsonObject(value) || entity) return null;
      return objectOf(unwrapUnion(value).value, type, scope);
    };
  }
  // An interface or union: an urn names an entity of a member type; a record is of the member a rule named
  // (`__typename`), or of the one the PDL union names (`…StringType` → the member `StringType`).
  const abstract = type as GraphQLInterfaceType | GraphQLUnionType;
  const memberOf = (name: unknown, scope: Scope): GraphQLObjectType | undefined => {
    const member = typeof name === 'string' ? scope.schema.getType(name) : undefined;
    return member && isObjectType(member) && scope.schema.isSubType(abstract, member) ? member : undefined;
  };
  return (value, scope) => {
    if (typeof value === 'string') {
      const ref = refOf(value, scope);
      return ref && memberOf(ref.__typename, scope) ? ref : null;
    }
    if (!isJsonObject(value)) return null;
    const record = unwrapUnion(value);
    const member = memberOf(typeof record.value.__typename === 'string' ? record.value.__typename : record.member, scope);
    return member ? objectOf(record.value, member, scope) : null;
  };
}

const refOf = (urn: string, scope: Scope) => (scope.ref ? scope.ref(urn) : entityRef(urn));

/** An object type's fields as the conversion walks them: those without arguments, and the converter of each. */
interface FieldPlan {
  readonly name: string;
  readonly hasArgs: boolean;
  readonly nonNull: boolean;
  readonly type: GraphQLOutputType;
  convert?: Converter;
}

const fieldPlans = new WeakMap<GraphQLObjectType, FieldPlan[]>();

function fieldsOf(type: GraphQLObjectType): FieldPlan[] {
  let plan = fieldPlans.get(type);
  if (!plan) {
    plan = Object.values(type.getFields()).map((field) => ({
      name: field.name,
      hasArgs: field.args.length > 0,
      nonNull: isNonNullType(field.type),
      type: field.type,
    }));
    fieldPlans.set(type, plan);
  }
  return plan;
}

/**
 * An object of a GraphQL object type from a record: each field from the key of its name, or by the type's rule. A
 * non-null field that has no answer (an owner urn that is no user or group) makes the object absent — dropped from
 * its list, or null where it may be — rather than an error for the whole answer.
 */
function objectOf(value: Json, type: GraphQLObjectType, scope: Scope): Json | null {
  const rules = scope.rules[type.name];
  const out: Json = { __typename: type.name };
  for (const field of fieldsOf(type)) {
    const rule = rules?.[field.name];
    if (field.hasArgs && !rule) continue; // a field with arguments has a resolver of its own
    let raw = rule === undefined ? value[field.name] : typeof rule === 'string' ? value[rule] : rule(value, scope);
    if (raw === undefined && field.name === 'associatedUrn') raw = scope.urn;
    const answer = (field.convert ??= converterOf(field.type))(raw, scope);
    if ((answer === null || answer === undefined) && field.nonNull) return null;
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
