import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLScalarType, Kind, type GraphQLSchema } from 'graphql';
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

/** The executable API schema of the modules given: the base SDL, each module's SDL, and each module's resolvers. */
export function buildApiSchema(modules: readonly Pick<ApiModule, 'typeDefs' | 'resolvers'>[]): GraphQLSchema {
  const typeDefs = modules.flatMap((m) => m.typeDefs ?? []);
  return makeExecutableSchema({
    typeDefs: [...BASE_TYPE_DEFS, ...(typeDefs.some((sdl) => EXTENDS_MUTATION.test(sdl)) ? [MUTATION_ROOT!] : []), ...typeDefs],
    resolvers: [{ Long }, ...modules.flatMap((m) => m.resolvers ?? [])] as never,
  });
}
