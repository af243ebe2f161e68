import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { edgeJson, edgeNumber, edgeString, wellFormed } from './fuzz-values';

/** A GraphQL request body as a client would send it. */
interface GraphQLBody {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

const MAX_DEPTH = 5;
const INT_EDGES = [0, 1, -1, 10, 999, 1000, 1001, 2 ** 31 - 1, -(2 ** 31)];

/**
 * Walks the schema to write operations that are mostly valid (real fields, arguments of the right shape, inline
 * and as variables) with a share of deliberate mistakes: wrong argument types, missing or extra selections,
 * unknown names, broken syntax, variables that do not match their declaration.
 */
export function graphqlBodies(schema: GraphQLSchema): fc.Arbitrary<GraphQLBody> {
  return fc.gen().map((g) => new DocumentWriter(g, schema).body());
}

class DocumentWriter {
  private readonly definitions: string[] = [];
  private readonly variables: Record<string, unknown> = {};
  /** Most documents are valid (so resolvers run with odd but well-typed values); the rest carry mistakes. */
  private readonly clean: boolean;

  constructor(
    private readonly g: fc.GeneratorValue,
    private readonly schema: GraphQLSchema,
  ) {
    this.clean = this.chance(60);
  }

  body(): GraphQLBody {
    const kind = this.corrupt(10) ? 'subscription' : this.pick(['query', 'mutation'] as const);
    const root = kind === 'mutation' ? this.schema.getMutationType() : this.schema.getQueryType();
    const fields = Object.values(root!.getFields());
    const count = this.int(1, 3);
    const selections = Array.from({ length: count }, (_, i) =>
      this.field(this.pick(fields), 1, count > 1 || this.chance(10) ? `f${i}` : undefined),
    );
    if (this.chance(5))
      selections.push(this.pick(['__schema { types { name } }', '__type(name: "Tag") { name fields { name } }', '__typename']));
    if (this.corrupt(5)) selections.push('nope');
    const name = this.chance(50) ? this.pick(['Op', 'Fuzz', 'op_1']) : undefined;
    const head =
      name || this.definitions.length
        ? `${kind}${name ? ` ${name}` : ''}${this.definitions.length ? `(${this.definitions.join(', ')})` : ''} `
        : kind === 'query'
          ? ''
          : `${kind} `;
    let query = `${head}{ ${selections.join(' ')} }`;
    if (this.corrupt(20)) query = this.garble(query);
    const body: GraphQLBody = { query };
    if (Object.keys(this.variables).length || this.chance(10))
      body.variables = this.corrupt(10) ? { ...this.variables, extra: this.g(() => edgeJson) } : this.variables;
    if (name && this.chance(30)) body.operationName = name;
    else if (this.corrupt(15)) body.operationName = this.chance(50) ? 'Missing' : this.g(() => edgeString);
    return body;
  }

  private field(field: GraphQLField<unknown, unknown>, depth: number, alias?: string): string {
    const args = this.arguments(field.args);
    return `${alias ? `${alias}: ` : ''}${field.name}${args}${this.selection(field.type, depth)}`;
  }

  private arguments(args: readonly GraphQLArgument[]): string {
    const parts: string[] = [];
    for (const arg of args) {
      if (!isNonNullType(arg.type) && this.chance(40)) continue;
      if (isNonNullType(arg.type) && this.corrupt(5)) continue; // a required argument left out
      parts.push(`${arg.name}: ${this.value(arg.type, true)}`);
    }
    if (this.corrupt(8)) parts.push(`bogus: ${this.literal(this.g(() => edgeJson))}`);
    return parts.length ? `(${parts.join(', ')})` : '';
  }

  private selection(type: GraphQLOutputType, depth: number): string {
    const named = getNamedType(type);
    if (!isObjectType(named) && !isInterfaceType(named) && !isUnionType(named)) {
      return this.corrupt(5) ? ' { urn }' : ''; // a selection on a leaf
    }
    if (this.corrupt(5)) return ''; // a composite without a selection
    if (depth >= MAX_DEPTH) return ' { __typename }';
    const parts: string[] = [];
    if (isUnionType(named) || (isInterfaceType(named) && this.chance(40))) {
      parts.push('__typename');
      for (const possible of this.schema.getPossibleTypes(named))
        parts.push(`... on ${possible.name}${this.selection(possible, depth + 1) || ' { __typename }'}`);
    }
    if (!isUnionType(named)) {
      const fields = Object.values(named.getFields());
      const count = this.int(1, Math.min(4, fields.length));
      // Unique aliases, so one field asked twice with different arguments is not a conflict (except on purpose).
      for (let i = 0; i < count; i++)
        parts.push(this.field(this.pick(fields), depth + 1, i > 0 && !this.corrupt(30) ? `a${depth}_${i}` : undefined));
      if (this.corrupt(5)) parts.push('notAField');
    }
    return ` { ${parts.join(' ')} }`;
  }

  /** An argument value: inline literal, or a variable declared with the argument's type (rarely another type). */
  private value(type: GraphQLInputType, allowVariable: boolean): string {
    if (allowVariable && this.chance(30)) {
      const name = `v${this.definitions.length}`;
      const declared = this.corrupt(10) ? this.pick(['String', 'Int!', '[String!]!', 'Boolean', 'Long']) : String(type);
      this.definitions.push(`$${name}: ${declared}`);
      if (!this.corrupt(10)) this.variables[name] = this.json(type); // sometimes declared, never given
      return `$${name}`;
    }
    return this.literal(this.json(type), getNamedType(type));
  }

  /** A JSON value for `type`: right-shaped most of the time, anything at all otherwise. */
  private json(type: GraphQLInputType): unknown {
    if (this.corrupt(10)) return this.g(() => edgeJson);
    if (isNonNullType(type)) return this.json(type.ofType);
    if (isListType(type))
      return this.chance(15) ? this.json(type.ofType) : Array.from({ length: this.int(0, 3) }, () => this.json(type.ofType));
    const named = getNamedType(type);
    if (isEnumType(named)) return this.corrupt(10) ? 'NOT_A_VALUE' : this.pick(named.getValues()).name;
    if (isInputObjectType(named)) {
      const object: Record<string, unknown> = {};
      for (const field of Object.values(named.getFields())) {
        if (!isNonNullType(field.type) && this.chance(50)) continue;
        object[field.name] = this.json(field.type);
      }
      if (this.corrupt(5)) object.unknownField = 1;
      return object;
    }
    if (this.corrupt(5)) return String(this.g(() => edgeNumber));
    switch (named.name) {
      case 'Int':
        return this.clean ? this.pick(INT_EDGES) : this.g(() => edgeNumber);
      case 'Long':
        return this.clean ? this.pick([...INT_EDGES, 2 ** 53 - 1, -(2 ** 53 - 1), 1767225600000]) : this.g(() => edgeNumber);
      case 'Float':
        return this.g(() => edgeNumber);
      case 'Boolean':
        return this.g(fc.boolean);
      default:
        return this.clean ? wellFormed(this.g(() => edgeString)) : this.g(() => edgeString);
    }
  }

  /** GraphQL literal syntax for a JSON value; strings of an enum type print as enum names when they can. */
  private literal(value: unknown, type?: GraphQLNamedType): string {
    if (value === null || value === undefined) return 'null';
    if (typeof value === 'string') return type && isEnumType(type) && /^[_A-Za-z]\w*$/.test(value) ? value : JSON.stringify(value);
    if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '0';
    if (typeof value === 'boolean') return String(value);
    if (Array.isArray(value)) return `[${value.map((v) => this.literal(v, type)).join(', ')}]`;
    const fields = isInputObjectType(type) ? type.getFields() : {};
    const entries = Object.entries(value as Record<string, unknown>).filter(([k]) => /^[_A-Za-z]\w*$/.test(k));
    return `{${entries.map(([k, v]) => `${k}: ${this.literal(v, fields[k] ? getNamedType(fields[k].type) : undefined)}`).join(', ')}}`;
  }

  /** Breaks the text: a character dropped, doubled or replaced, or the document cut short. */
  private garble(text: string): string {
    const at = this.int(0, Math.max(0, text.length - 1));
    switch (this.int(0, 3)) {
      case 0:
        return text.slice(0, at) + text.slice(at + 1);
      case 1:
        return text.slice(0, at) + text[at] + text.slice(at);
      case 2:
        return text.slice(0, at) + this.pick(['{', '}', '(', ')', '"', '$', '@skip', '...', '#', '\\', ':', '!']) + text.slice(at + 1);
      default:
        return text.slice(0, at);
    }
  }

  /** A deliberate mistake, `percent` times in a hundred, in documents that are not meant to be clean. */
  private corrupt(percent: number): boolean {
    return !this.clean && this.chance(percent);
  }

  private int(min: number, max: number): number {
    return this.g(fc.integer, { min, max });
  }

  /** True `percent` times in a hundred. */
  private chance(percent: number): boolean {
    return this.int(0, 99) < percent;
  }

  private pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
}
