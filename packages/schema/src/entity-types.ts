import { Kind, parse } from 'graphql';

/**
 * The object types that implement `Entity` in the given SDL texts (declared or extended with it), sorted: the types
 * whose resolvers hand on an urn and whose fields resolve themselves (codegen's mappers).
 */
export function entityTypeNamesOf(typeDefs: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of typeDefs) {
    for (const definition of parse(text).definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      if (definition.interfaces?.some((i) => i.name.value === 'Entity')) names.add(definition.name.value);
    }
  }
  return [...names].sort();
}
