import {
  astFromValue,
  buildASTSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isSpecifiedDirective,
  isUnionType,
  parse,
  print,
  type GraphQLArgument,
  type GraphQLInputField,
  type GraphQLSchema,
} from 'graphql';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Schema coordinates: one line per fact a client can depend on, so two schemas compare line by line.
 *
 * - `type Dataset`, `interface Entity`, `input FilterInput`, `enum EntityType`, `scalar Long`: a named type and its kind
 * - `union SearchResultEntity = A | B`: a union and its members, sorted
 * - `Dataset implements Entity`: one line per interface
 * - `Dataset.schemaMetadata(version: Long): SchemaMetadata`: an object or interface field, its arguments sorted by name
 *   (with `= default` when declared), then its type
 * - `FilterInput.or: [AndFilterInput!]`: an input field (`= default` when declared)
 * - `EntityType.DATASET`: an enum value
 * - `schema.query: Query`: a root operation type
 * - `directive @name(arg: T) on LOCATION | …`: a directive that is not one of GraphQL's own
 *
 * Descriptions and deprecations are not part of the coordinates: they change no answer.
 */
export interface Coordinate {
  /** What the line is about: the same key in two schemas names the same thing (`Dataset.urn`, `Dataset`, `@name`). */
  key: string;
  /** The whole line. Two schemas agree on a key when their lines are equal. */
  line: string;
}

const KINDS = ['type', 'interface', 'input', 'enum', 'scalar', 'union', 'directive'] as const;

/** The key of a coordinate line, as schemaCoordinates would give it. */
export function coordinateKey(line: string): string {
  const kind = KINDS.find((k) => line.startsWith(`${k} `));
  if (kind) return line.slice(kind.length + 1).split(/[ (]/, 1)[0]!;
  if (line.includes(' implements ')) return line;
  return line.split(/[(:]/, 1)[0]!.trim();
}

/** The type (or directive) a coordinate line is about, for grouping. */
const subjectOf = (key: string) => key.split(/[. ]/, 1)[0]!;
/** Within a type: its kind first, then what it implements, then fields and values. */
const rankOf = (c: Coordinate) => (!c.key.includes('.') && !c.key.includes(' ') ? 0 : c.key.includes(' implements ') ? 1 : 2);

/** Sorted by type name, the type's own line first, then its interfaces, then its fields or values by name. */
export function sortCoordinates<T extends Coordinate>(coordinates: Iterable<T>): T[] {
  return [...coordinates].sort((a, b) => {
    const sa = subjectOf(a.key);
    const sb = subjectOf(b.key);
    if (sa !== sb) return sa < sb ? -1 : 1;
    const ra = rankOf(a);
    const rb = rankOf(b);
    if (ra !== rb) return ra - rb;
    return a.line < b.line ? -1 : a.line > b.line ? 1 : 0;
  });
}

const defaultOf = (input: GraphQLArgument | GraphQLInputField) => {
  if (input.defaultValue === undefined) return '';
  const ast = astFromValue(input.defaultValue, input.type);
  return ast ? ` = ${print(ast)}` : '';
};

const argumentList = (args: readonly GraphQLArgument[]) =>
  args.length === 0
    ? ''
    : `(${[...args]
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((arg) => `${arg.name}: ${String(arg.type)}${defaultOf(arg)}`)
        .join(', ')})`;

/** Every coordinate of a schema (introspection types and GraphQL's own directives left out), sorted. */
export function schemaCoordinates(schema: GraphQLSchema): Coordinate[] {
  const out: Coordinate[] = [];
  const add = (line: string) => out.push({ key: coordinateKey(line), line });

  for (const [operation, root] of [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
  ] as const) {
    if (root) add(`schema.${operation}: ${root.name}`);
  }

  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isScalarType(type)) add(`scalar ${type.name}`);
    else if (isEnumType(type)) {
      add(`enum ${type.name}`);
      for (const value of type.getValues()) add(`${type.name}.${value.name}`);
    } else if (isUnionType(type)) {
      const members = type
        .getTypes()
        .map((t) => t.name)
        .sort();
      add(`union ${type.name} = ${members.join(' | ')}`);
    } else if (isInputObjectType(type)) {
      add(`input ${type.name}`);
      for (const field of Object.values(type.getFields())) add(`${type.name}.${field.name}: ${String(field.type)}${defaultOf(field)}`);
    } else if (isObjectType(type) || isInterfaceType(type)) {
      add(`${isObjectType(type) ? 'type' : 'interface'} ${type.name}`);
      for (const iface of type.getInterfaces()) add(`${type.name} implements ${iface.name}`);
      for (const field of Object.values(type.getFields())) {
        add(`${type.name}.${field.name}${argumentList(field.args)}: ${String(field.type)}`);
      }
    }
  }

  for (const directive of schema.getDirectives()) {
    if (isSpecifiedDirective(directive)) continue;
    const locations = [...directive.locations].sort().join(' | ');
    add(`directive @${directive.name}${argumentList(directive.args)}${directive.isRepeatable ? ' repeatable' : ''} on ${locations}`);
  }
  return sortCoordinates(out);
}

/** DataHub's GraphQL schema as its server assembles it: every `.graphql` file of a folder, in name order, as one document. */
export function buildSchemaFromFolder(folder: string): { schema: GraphQLSchema; files: string[] } {
  const files = readdirSync(folder)
    .filter((f) => f.endsWith('.graphql'))
    .sort();
  const source = files.map((f) => readFileSync(join(folder, f), 'utf8')).join('\n');
  return { schema: buildASTSchema(parse(source)), files };
}

/** What a coordinate list file holds: its `#` header lines and its coordinates. */
export function readCoordinateLines(text: string): string[] {
  return text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

/** How `mine` stands against `reference`, key by key. */
export interface CoordinateComparison {
  /** Reference lines whose key `mine` does not have. */
  lacking: string[];
  /** Reference lines whose key `mine` has with another line; `mine` holds that other line. */
  differing: { reference: string; mine: string }[];
  /** Reference lines `mine` has exactly. */
  equal: string[];
  /** Lines of `mine` whose key the reference does not have. */
  extra: string[];
}

export function compareCoordinates(reference: readonly string[], mine: readonly Coordinate[]): CoordinateComparison {
  const byKey = new Map(mine.map((c) => [c.key, c.line]));
  const referenceKeys = new Set<string>();
  const result: CoordinateComparison = { lacking: [], differing: [], equal: [], extra: [] };
  for (const line of reference) {
    const key = coordinateKey(line);
    referenceKeys.add(key);
    const other = byKey.get(key);
    if (other === undefined) result.lacking.push(line);
    else if (other === line) result.equal.push(line);
    else result.differing.push({ reference: line, mine: other });
  }
  result.extra = mine.filter((c) => !referenceKeys.has(c.key)).map((c) => c.line);
  return result;
}

/**
 * A schema rebuilt from coordinate lines alone (types, fields with their arguments, interfaces, unions, enum values,
 * input fields, roots): DataHub's schema as a client sees it, without DataHub's SDL files — for tests that need to
 * execute or price the UI's documents against DataHub's own types.
 */
export function schemaFromCoordinates(lines: readonly string[]): GraphQLSchema {
  const kinds = new Map<string, string>();
  const members = new Map<string, string[]>();
  const interfaces = new Map<string, string[]>();
  const roots: string[] = [];
  const directives: string[] = [];
  for (const line of lines) {
    const named = /^(type|interface|input|enum|scalar) (\w+)$/.exec(line);
    const union = /^union (\w+) = (.+)$/.exec(line);
    const implementing = /^(\w+) implements (\w+)$/.exec(line);
    const root = /^schema\.(\w+): (\w+)$/.exec(line);
    const member = /^(\w+)\.(.+)$/.exec(line);
    if (named) kinds.set(named[2]!, named[1]!);
    else if (union) kinds.set(union[1]!, `union ${union[1]} = ${union[2]}`);
    else if (implementing) interfaces.set(implementing[1]!, [...(interfaces.get(implementing[1]!) ?? []), implementing[2]!]);
    else if (root) roots.push(`${root[1]}: ${root[2]}`);
    else if (line.startsWith('directive ')) directives.push(line);
    else if (member) members.set(member[1]!, [...(members.get(member[1]!) ?? []), member[2]!]);
  }
  const builtIn = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);
  const sdl: string[] = [`schema { ${roots.join(' ')} }`, ...directives];
  for (const [name, kind] of kinds) {
    if (kind.startsWith('union ')) sdl.push(kind);
    else if (kind === 'scalar') {
      if (!builtIn.has(name)) sdl.push(`scalar ${name}`);
    } else {
      const implemented = interfaces.get(name);
      const head = `${kind} ${name}${implemented ? ` implements ${implemented.join(' & ')}` : ''}`;
      sdl.push(`${head} {\n${(members.get(name) ?? []).map((m) => `  ${m}`).join('\n')}\n}`);
    }
  }
  return buildASTSchema(parse(sdl.join('\n')));
}
