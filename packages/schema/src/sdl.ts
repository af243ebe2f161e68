import { loadFilesSync } from '@graphql-tools/load-files';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLScalarType, Kind, type GraphQLSchema } from 'graphql';
import { fileURLToPath } from 'node:url';
import type { Resolvers } from './generated/resolvers-types';

const sdlDir = fileURLToPath(new URL('../sdl', import.meta.url));

/** Every `.graphql` file of the API, in a stable order. */
export function loadTypeDefs() {
  return loadFilesSync(`${sdlDir}/*.graphql`, { extensions: ['graphql'] });
}

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

/** The executable API schema: all SDL plus the resolvers each domain package contributes. */
export function buildApiSchema(resolvers: Resolvers[]): GraphQLSchema {
  return makeExecutableSchema({ typeDefs: loadTypeDefs(), resolvers: [{ Long }, ...resolvers] as never });
}
