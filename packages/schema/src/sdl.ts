import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLScalarType, Kind, parse, type GraphQLSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import type { ApiModule } from './module';

/**
 * The SDL files beside a module's resolvers, read once: `sdlFiles(import.meta.url, 'tags.graphql')`. Each is the
 * types a package answers; a type or root that grows across files uses `extend type`.
 */
export function sdlFiles(base: string | URL, ...names: string[]): string[] {
  return names.map((name) => readFileSync(new URL(name, base), 'utf8'));
}

/** What every module's SDL builds on: the Long scalar, the Query root, the Entity interface and its kin. */
export const BASE_TYPE_DEFS: readonly string[] = sdlFiles(new URL('../sdl/', import.meta.url), 'base.graphql');
/** The Mutation root, declared when some module extends it (a schema's root type must have fields). */
const [MUTATION_ROOT] = sdlFiles(new URL('../sdl/', import.meta.url), 'mutation.graphql');
const EXTENDS_MUTATION = /\bextend\s+type\s+Mutation\b/;

/** DataHub's `Long`: a JSON number; accepts an integer literal or a string of digits as input. */
const Long = new GraphQLScalarType({
  name: 'Long',
  serialize: (value) => Number(value),
  parseValue(value) {
    const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new TypeError(`Long cannot represent ${JSON.stringify(value)}`);
    return n;
  },
  parseLiteral(ast) {
    if (ast.kind === Kind.INT || (ast.kind === Kind.STRING && /^-?\d+$/.test(ast.value))) return Number(ast.value);
    throw new TypeError('Long must be an integer');
  },
});

const ifDeclared = new WeakSet<object>();

/** The entries of a resolver map whose type and field the SDL declares (in a definition or an extension). */
function onlyDeclared(map: Record<string, Record<string, unknown>>, typeDefs: readonly string[]) {
  const fields = new Map<string, Set<string>>();
  for (const sdl of typeDefs) {
    for (const d of parse(sdl).definitions) {
      if (!('fields' in d) || !('name' in d) || !d.name) continue;
      const names = fields.get(d.name.value) ?? new Set<string>();
      for (const f of d.fields ?? []) names.add(f.name.value);
      fields.set(d.name.value, names);
    }
  }
  return Object.fromEntries(
    Object.entries(map).flatMap(([type, resolvers]) => {
      const declared = fields.get(type);
      const kept = declared ? Object.entries(resolvers).filter(([field]) => declared.has(field)) : [];
      return kept.length > 0 ? [[type, Object.fromEntries(kept)]] : [];
    }),
  );
}
/**
 * Marks a resolver map whose types may be declared by another module that a composition leaves out, or declared
 * without the field (a field every entity type has, such as `relationships`): the entries the composed schema does
 * not declare are dropped, where any other resolver of an undeclared type or field is an error.
 */
export function resolversIfDeclared<T extends object>(resolvers: T): T {
  ifDeclared.add(resolvers);
  return resolvers;
}

/** The executable API schema of the modules given: the base SDL, each module's SDL, and each module's resolvers. */
export function buildApiSchema(modules: readonly Pick<ApiModule, 'typeDefs' | 'resolvers'>[]): GraphQLSchema {
  const moduleTypeDefs = modules.flatMap((m) => m.typeDefs ?? []);
  const typeDefs = [
    ...BASE_TYPE_DEFS,
    ...(moduleTypeDefs.some((sdl) => EXTENDS_MUTATION.test(sdl)) ? [MUTATION_ROOT!] : []),
    ...moduleTypeDefs,
  ];
  const resolvers = modules
    .flatMap((m) => m.resolvers ?? [])
    .map((map) => (ifDeclared.has(map) ? onlyDeclared(map as Record<string, Record<string, unknown>>, typeDefs) : map));
  // Without source locations: the schema's AST nodes are kept for the life of the process, and their tokens and
  // locations (3 MB, 21 k tokens) would serve only the messages of an SDL error, which the schema snapshot test catches.
  return makeExecutableSchema({ typeDefs, resolvers: [{ Long }, ...resolvers] as never, noLocation: true });
}
