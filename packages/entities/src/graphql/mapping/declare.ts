import { findEntity, parseUrn } from '@mds/core';
import type { ApiContext, EntityParent, Resolvers } from '@mds/schema';
import type { GraphQLResolveInfo } from 'graphql';
import type { StoredAspect } from '../../service';
import type { Loaders } from '../common-fields';
import { entityRef, GRAPHQL_TYPENAMES } from '../typenames';
import { toGraphQL, type Json, type Scope, type TypeRules } from './convert';

/** What a field rule of an entity type is handed: the entity's urn, its key's parts and its stored aspects. */
export interface EntityScope {
  readonly urn: string;
  /** The urn's key parts, in the key aspect's order (`[platform, name, origin]` for a dataset). */
  readonly parts: readonly string[];
  /** The entity's aspects, by name: the latest ones unless the mapping reads others (empty when none is stored). */
  readonly aspects: ReadonlyMap<string, StoredAspect>;
  /** The latest value of an aspect, or undefined. */
  value(aspect: string): Json | undefined;
}

/**
 * How one field of an entity type is answered: the name of the aspect it shows (converted to the field's type as
 * `toGraphQL` does), or a function of the entity (its urn, key parts, aspects) giving the raw value to convert.
 */
export type EntityFieldRule = string | ((entity: EntityScope) => unknown);

/**
 * An entity type's GraphQL face, declared once: which aspect (or which part of the urn) each field shows. Adding a
 * field that reads an aspect is a line here; the resolvers are generated (`entityTypeResolvers`).
 */
export interface EntityMapping {
  /** The registry name (`dataset`, `mlModel`). */
  readonly entity: string;
  /** The fields and what answers each. Fields of the `Entity` interface (`urn`, `type`) answer themselves. */
  readonly fields: Readonly<Record<string, EntityFieldRule>>;
  /** Fields resolved by hand (they take arguments or read other entities); they win over `fields`. */
  readonly resolvers?: Readonly<
    Record<string, (parent: EntityParent, args: never, context: ApiContext, info: GraphQLResolveInfo) => unknown>
  >;
}

/**
 * The resolvers of the declared entity types: each field reads its entity's aspects through the request's batched
 * loaders (one store read for every entity asked at one depth) and converts what it finds to the field's type, with
 * the rules given for the types under it (DataHub's mappers' renames and reshapes).
 */
export function entityTypeResolvers(loaders: Loaders, mappings: readonly EntityMapping[], options: MappingOptions): Resolvers {
  const resolvers: Record<string, Record<string, unknown>> = {};
  for (const mapping of mappings) {
    const typename = GRAPHQL_TYPENAMES[mapping.entity];
    if (!typename) throw new Error(`no GraphQL type answers the entity type ${mapping.entity}`);
    resolvers[typename] = { ...fieldResolvers(loaders, mapping.fields, options), ...mapping.resolvers };
  }
  return resolvers;
}

/** The rules under the declared fields, and how an urn becomes the object of its entity. */
export interface MappingOptions {
  readonly rules: TypeRules;
  /** The object of an entity an urn names; `entityRef` unless given. */
  readonly ref?: (urn: string) => Json | undefined;
  /**
   * Where the entity's aspects are read: the request's latest aspects of its urn unless given (a versioned dataset
   * reads them at the versions its parent names).
   */
  readonly aspects?: (parent: EntityParent, context: ApiContext) => Promise<ReadonlyMap<string, StoredAspect> | undefined>;
}

/**
 * A generated resolver. Its answer is typed `never` so it fits any field's generated resolver type: the answer's shape
 * comes from the field's GraphQL type at run time (`toGraphQL`), which GraphQL then checks.
 */
type FieldResolver = (parent: EntityParent, args: unknown, context: ApiContext, info: GraphQLResolveInfo) => Promise<never>;

/** The resolvers of some fields of an entity type, each answering as its rule says (see `EntityFieldRule`). */
export function fieldResolvers<Field extends string>(
  loaders: Loaders,
  fields: Readonly<Record<Field, EntityFieldRule>>,
  options: MappingOptions,
): Record<Field, FieldResolver> {
  const ref = options.ref ?? ((urn: string): Json | undefined => entityRef(urn));
  const aspectsOf = options.aspects ?? ((parent: EntityParent, context: ApiContext) => loaders(context).aspects(parent.urn));
  const resolve =
    (rule: EntityFieldRule): FieldResolver =>
    async (parent, _args, context, info) => {
      const entity = entityScope(parent.urn, await aspectsOf(parent, context));
      const raw = typeof rule === 'string' ? entity.value(rule) : rule(entity);
      const scope: Scope = { urn: parent.urn, schema: info.schema, rules: options.rules, ref };
      return toGraphQL(raw, info.returnType, scope, info) as never;
    };
  return Object.fromEntries(Object.entries<EntityFieldRule>(fields).map(([field, rule]) => [field, resolve(rule)])) as Record<
    Field,
    FieldResolver
  >;
}

function entityScope(urn: string, stored: ReadonlyMap<string, StoredAspect> | undefined): EntityScope {
  const aspects = stored ?? new Map<string, StoredAspect>();
  let parts: readonly string[] | undefined;
  return {
    urn,
    // Parsed when a rule reads it: most read aspects only, and a page resolves hundreds of fields.
    get parts() {
      return (parts ??= parseUrn(urn).parts);
    },
    aspects,
    value: (aspect) => aspects.get(aspect)?.value,
  };
}

/** The stored entity of an urn of a declared type, as its GraphQL object; null when its key aspect is not stored. */
export async function storedEntity(loaders: Loaders, urn: string, context: ApiContext): Promise<EntityParent | null> {
  const spec = findEntity(parseUrn(urn).entityType);
  const typename = spec && GRAPHQL_TYPENAMES[spec.name];
  if (!spec || !typename) return null;
  const aspects = await loaders(context).aspects(urn);
  return aspects?.has(spec.keyAspect) ? { __typename: typename, urn, type: spec.graphqlType } : null;
}
