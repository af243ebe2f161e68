import { findEntityOfUrn } from '@mds/core';
import { type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import { pageOrRefuse, aspectValue, refWithKey, text, urnOf, type Loaders, type Parent } from './common-fields';
import { entityObject } from './dataset';
import type { EntitySearcher } from './search';

/** How far up a chain of containers or domains is followed (a cycle in ingested data must not hang a request). */
/** Which end of its edges an entity is asked about. */
type Direction = 'INCOMING' | 'OUTGOING';
/** Every edge of one entity fits in one read; paging is applied to what it answers. */
const ALL_EDGES = 10_000;
const MAX_DEPTH = 32;

/**
 * The GraphQL face of containers, domains and platforms (users and groups are users.ts's), and the fields that lead from an entity to
 * others: its container chain (the browse path is a field of the asset mappings, asset-fields.ts) (entities-api §9.2; lineage is lineage.ts's; the
 * `relationships` of every entity type is `relationshipsResolver` below). Every aspect read goes through the request's
 * batched loaders.
 */
export function catalogResolvers(loaders: Loaders, searchEntities: EntitySearcher): Resolvers {
  const value = aspectValue(loaders);

  /** The urns above `urn`, nearest first, following `next` (a container's container, a domain's parent). */
  const chain = async (urn: string, next: (urn: string) => Promise<string | null>) => {
    const seen = new Set([urn]);
    const above: string[] = [];
    for (let at = await next(urn); at && !seen.has(at) && above.length < MAX_DEPTH; at = await next(at)) {
      seen.add(at);
      above.push(at);
    }
    return above;
  };
  const containerOf = (context: ApiContext) => async (urn: string) => text((await value(urn, 'container', context))?.container);

  const parentContainers = async (parent: Parent, _args: unknown, context: ApiContext) => {
    const containers = (await chain(urnOf(parent), containerOf(context))).map((urn) => entityObject(urn)!);
    return { count: containers.length, containers };
  };

  type EntitiesArgs = {
    input?: {
      query?: string | null;
      start?: number | null;
      count?: number | null;
      filters?: { field: string; values?: string[] | null }[] | null;
    } | null;
  };
  /** The entities whose `field` holds the parent (a container's members, a domain's entities). */
  const entitiesIn =
    (field: string) =>
    (parent: Parent, { input }: EntitiesArgs, context: ApiContext) =>
      searchEntities(
        {
          query: input?.query ?? '*',
          start: input?.start,
          count: input?.count,
          filters: input?.filters,
          scope: [{ field, values: [urnOf(parent)] }],
        },
        context,
      );

  const resolvers: Resolvers = {
    Container: { parentContainers, entities: entitiesIn('container') },
    Dataset: { parentContainers },
    Dashboard: { parentContainers },
    Chart: { parentContainers },
    DataFlow: { parentContainers },
    DataJob: { parentContainers },
    ...Object.fromEntries([['DataProcessInstance', { parentContainers }]]),
  };
  return resolvers;
}

type RelationshipsArgs = {
  input: { types: string[]; direction: Direction; start?: number | null; count?: number | null; includeSoftDelete?: boolean | null };
};

/**
 * The GraphQL object of an urn another entity points to (an edge's end, a lineage hop, a sibling): through its type's
 * face, else what its urn says (its key fields); null for a urn of no entity type with a GraphQL type.
 */
export const entityOfUrn =
  (loaders: Loaders) =>
  async (urn: string, context: ApiContext): Promise<EntityParent | null> => {
    const type = findEntityOfUrn(urn)?.graphqlType;
    if (!type) return null;
    return (await loaders(context).entity(type, urn)) ?? entityObject(urn) ?? (refWithKey(urn) as EntityParent | undefined) ?? null;
  };

/**
 * `relationships(input:)` of any entity type: a page of the entity's edges of the given names, in one direction,
 * without edges to soft-deleted entities when `includeSoftDelete` is false.
 */
export function relationshipsResolver(loaders: Loaders) {
  const value = aspectValue(loaders);
  const entityAt = entityOfUrn(loaders);
  return async (parent: Parent, { input }: RelationshipsArgs, context: ApiContext) => {
    const page = pageOrRefuse(input.start, input.count);
    const query = { direction: input.direction, types: input.types, start: 0, count: ALL_EDGES };
    const found = await loaders(context).reader.relationships(urnOf(parent), query);
    let edges = found.relationships;
    if (input.includeSoftDelete === false) {
      const removed = await Promise.all(edges.map(async (edge) => (await value(edge.entity, 'status', context))?.removed === true));
      edges = edges.filter((_, i) => !removed[i]);
    }
    const shown = edges.slice(page.start, page.start + page.count);
    const answered = await Promise.all(
      shown.map(async (edge) => ({ type: edge.type, direction: input.direction, entity: await entityAt(edge.entity, context) })),
    );
    return { start: page.start, count: answered.length, total: edges.length, relationships: answered };
  };
}
