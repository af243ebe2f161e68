import { isJsonObject } from '@mds/core';
import { entityRef } from '../typenames';
import {
  Kind,
  getNamedType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInterfaceType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type GraphQLUnionType,
  type SelectionSetNode,
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
export function toGraphQL(
  value: unknown,
  type: GraphQLOutputType,
  scope: Scope,
  asked?: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>,
): unknown {
  return converterOf(type)(value, scope, asked && { nodes: asked.fieldNodes, fragments: asked.fragments });
}

/**
 * What the query asks of a value: the field nodes that ask for it (their selections, with fragments). A resolver that
 * answers with `toGraphQL(…, info)` has only these fields converted of each object whose type has no resolver of its
 * own: no one but graphql-js's default resolver ever reads such an object, and it reads only the fields asked. Every
 * non-null field is still converted (one without an answer makes the object absent). An object of a type with a
 * resolver is converted whole, with everything below it, since the resolver may read any of it. Undefined: everything.
 */
interface Selection {
  readonly nodes: readonly FieldNode[];
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
}

type Converter = (value: unknown, scope: Scope, selection?: Selection) => unknown;

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
    convert = (value, scope, selection) => (innerConverter ??= converterOf(inner))(value, scope, selection) ?? emptyOf(inner, scope);
  } else if (isListType(type)) {
    const item = type.ofType;
    const ofEntries = isEntryType(getNamedType(item));
    const dropEmpty = isNonNullType(item);
    let itemConverter: Converter | undefined;
    convert = (value, scope, selection) => {
      const items = Array.isArray(value) ? value : ofEntries && isJsonObject(value) ? entries(value) : undefined;
      if (!items) return null;
      const convertItem = (itemConverter ??= converterOf(item));
      const converted = items.map((x) => convertItem(x, scope, selection));
      return dropEmpty ? converted.filter((x) => x !== null && x !== undefined) : converted;
    };
  } else {
    convert = compileNamed(type);
  }
  // A value of another entity than the one being answered: converted with that entity as the scope.
  const self: Converter = (value, scope, selection) =>
    value instanceof OfEntity ? self(value.value, { ...scope, urn: value.urn }, selection) : convert(value, scope, selection);
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
    return (value, scope, selection) => {
      if (typeof value === 'string') {
        // An urn where an entity is expected: the entity, when its GraphQL type is this one.
        const ref = refOf(value, scope);
        return ref && ref.__typename === type.name ? ref : null;
      }
      if (!isJsonObject(value) || entity) return null;
      return objectOf(unwrapUnion(value).value, type, scope, selection);
    };
  }
  // An interface or union: an urn names an entity of a member type; a record is of the member a rule named
  // (`__typename`), or of the one the PDL union names (`…StringType` → the member `StringType`).
  const abstract = type as GraphQLInterfaceType | GraphQLUnionType;
  const memberOf = (name: unknown, scope: Scope): GraphQLObjectType | undefined => {
    const member = typeof name === 'string' ? scope.schema.getType(name) : undefined;
    return member && isObjectType(member) && scope.schema.isSubType(abstract, member) ? member : undefined;
  };
  return (value, scope, selection) => {
    if (typeof value === 'string') {
      const ref = refOf(value, scope);
      return ref && memberOf(ref.__typename, scope) ? ref : null;
    }
    if (!isJsonObject(value)) return null;
    const record = unwrapUnion(value);
    const member = memberOf(typeof record.value.__typename === 'string' ? record.value.__typename : record.member, scope);
    return member ? objectOf(record.value, member, scope, selection) : null;
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
  /** What is asked of the field's value; undefined: everything. */
  readonly selection?: Selection;
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
function objectOf(value: Json, type: GraphQLObjectType, scope: Scope, selection?: Selection): Json | null {
  const rules = scope.rules[type.name];
  const out: Json = { __typename: type.name };
  for (const field of selection ? askedFieldsOf(type, selection, scope.schema) : fieldsOf(type)) {
    const rule = rules?.[field.name];
    if (field.hasArgs && !rule) continue; // a field with arguments has a resolver of its own
    let raw = rule === undefined ? value[field.name] : typeof rule === 'string' ? value[rule] : rule(value, scope);
    if (raw === undefined && field.name === 'associatedUrn') raw = scope.urn;
    const answer = (field.convert ??= converterOf(field.type))(raw, scope, field.selection);
    if ((answer === null || answer === undefined) && field.nonNull) return null;
    out[field.name] = answer;
  }
  return out;
}

/**
 * The fields of `type` to convert for `selection` (see Selection), worked out once per type and field node: documents
 * are parsed once per text (the host's document cache), so the same nodes come back with every request of a query.
 */
const askedPlans = new WeakMap<object, Map<GraphQLObjectType, FieldPlan[]>>();

function askedFieldsOf(type: GraphQLObjectType, selection: Selection, schema: GraphQLSchema): FieldPlan[] {
  const key = selection.nodes.length === 1 ? selection.nodes[0]! : selection.nodes;
  let byType = askedPlans.get(key);
  if (!byType) askedPlans.set(key, (byType = new Map()));
  let plan = byType.get(type);
  if (!plan) {
    plan = planFor(type, selection, schema);
    byType.set(type, plan);
  }
  return plan;
}

function planFor(type: GraphQLObjectType, selection: Selection, schema: GraphQLSchema): FieldPlan[] {
  const all = fieldsOf(type);
  if (hasResolvers(type)) return all; // whole, and everything below it (no selection handed down)
  const asked = new Map<string, FieldNode[]>();
  const collect = (set: SelectionSetNode | undefined) => {
    for (const node of set?.selections ?? []) {
      if (node.kind === Kind.FIELD) {
        const nodes = asked.get(node.name.value);
        if (nodes) nodes.push(node);
        else asked.set(node.name.value, [node]);
      } else if (node.kind === Kind.INLINE_FRAGMENT) {
        if (!node.typeCondition || appliesTo(node.typeCondition.name.value, type, schema)) collect(node.selectionSet);
      } else {
        const fragment = selection.fragments[node.name.value];
        if (fragment && appliesTo(fragment.typeCondition.name.value, type, schema)) collect(fragment.selectionSet);
      }
    }
  };
  for (const node of selection.nodes) collect(node.selectionSet);
  return all.flatMap((field) => {
    const nodes = asked.get(field.name);
    if (!nodes && !field.nonNull) return [];
    // A non-null field nobody asked for is still converted, itself only as far as its own non-null fields.
    return [{ ...field, convert: undefined, selection: { nodes: nodes ?? [], fragments: selection.fragments } }];
  });
}

/** Whether a fragment on `condition` (a type's name) applies to an object of `type`. */
function appliesTo(condition: string, type: GraphQLObjectType, schema: GraphQLSchema): boolean {
  if (condition === type.name) return true;
  const named = schema.getType(condition);
  return !!named && isAbstractType(named) && schema.isSubType(named, type);
}

const withResolvers = new WeakMap<GraphQLObjectType, boolean>();
/** Whether any field of `type` has a resolver (one that may read any field of its parent). */
function hasResolvers(type: GraphQLObjectType): boolean {
  let has = withResolvers.get(type);
  if (has === undefined) {
    has = Object.values(type.getFields()).some((field) => field.resolve !== undefined);
    withResolvers.set(type, has);
  }
  return has;
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
