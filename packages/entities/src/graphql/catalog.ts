import { findEntityOfUrn, isJsonObject, pageOf, parseUrn, UrnError } from '@mds/core';
import { badRequest, type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import { aspectValue, commonFields, text, urnOf, type Loaders, type Parent } from './common-fields';
import { LINEAGE_RELATIONSHIPS } from '../model/relationships';
import { entityObject, platformObject } from './dataset';
import type { EntitySearcher } from './search';

type Direction = 'INCOMING' | 'OUTGOING';
/**
 * The edges one hop of lineage follows in each direction: DataHub's lineage relationships, outgoing where the source
 * is the downstream end (`DownstreamOf`, `Consumes`), incoming where it is the upstream end (`Produces`).
 */
const LINEAGE_EDGES: Readonly<Record<'UPSTREAM' | 'DOWNSTREAM', readonly [type: string, direction: Direction][]>> = {
  UPSTREAM: LINEAGE_RELATIONSHIPS.map(({ type, sourceIsDownstream }) => [type, sourceIsDownstream ? 'OUTGOING' : 'INCOMING']),
  DOWNSTREAM: LINEAGE_RELATIONSHIPS.map(({ type, sourceIsDownstream }) => [type, sourceIsDownstream ? 'INCOMING' : 'OUTGOING']),
};
/** Every edge of one entity fits in one read; paging is applied to what it answers. */
const ALL_EDGES = 10_000;
/** How far up a chain of containers or domains is followed (a cycle in ingested data must not hang a request). */
const MAX_DEPTH = 32;

/**
 * The GraphQL face of containers, users, groups, domains and platforms, and the fields that lead from an entity to
 * others: its container chain, browse path, platform instance, relationships and one hop of lineage (entities-api
 * §9.2). Every aspect read goes through the request's batched loaders.
 */
export function catalogResolvers(loaders: Loaders, searchEntities: EntitySearcher): Resolvers {
  const value = aspectValue(loaders);
  const common = commonFields(loaders);

  /** The entity of an urn another entity points to: through its type's face, else what its urn says. */
  const entityAt = async (urn: string, context: ApiContext): Promise<EntityParent | null> => {
    const type = findEntityOfUrn(urn)?.graphqlType;
    if (!type) return null;
    return (await loaders(context).entity(type, urn)) ?? entityObject(urn) ?? null;
  };

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

  const container = async (parent: Parent, _args: unknown, context: ApiContext) => {
    const urn = await containerOf(context)(urnOf(parent));
    return urn ? entityObject(urn) : null;
  };
  const parentContainers = async (parent: Parent, _args: unknown, context: ApiContext) => {
    const containers = (await chain(urnOf(parent), containerOf(context))).map((urn) => entityObject(urn)!);
    return { count: containers.length, containers };
  };
  const browsePathV2 = async (parent: Parent, _args: unknown, context: ApiContext) => {
    const v = await value(urnOf(parent), 'browsePathsV2', context);
    if (!v) return null;
    const entries = (Array.isArray(v.path) ? v.path : []).filter(isJsonObject);
    return { path: entries.map((entry) => ({ name: text(entry.id) ?? '', urn: text(entry.urn) })) };
  };
  const dataPlatformInstance = async (parent: Parent, _args: unknown, context: ApiContext) => {
    const v = await value(urnOf(parent), 'dataPlatformInstance', context);
    const platform = text(v?.platform);
    if (!platform) return null;
    const instance = text(v?.instance);
    let instanceId: string | null = null;
    try {
      instanceId = instance ? (parseUrn(instance).parts[1] ?? null) : null;
    } catch (error) {
      if (!(error instanceof UrnError)) throw error;
    }
    return { urn: instance, platform: entityObject(platform), instanceId };
  };

  type RelationshipsArgs = {
    input: { types: string[]; direction: Direction; start?: number | null; count?: number | null; includeSoftDelete?: boolean | null };
  };
  const relationships = async (parent: Parent, { input }: RelationshipsArgs, context: ApiContext) => {
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

  type LineageArgs = { input: { direction: 'UPSTREAM' | 'DOWNSTREAM'; start?: number | null; count?: number | null } };
  const lineage = async (parent: Parent, { input }: LineageArgs, context: ApiContext) => {
    const page = pageOrRefuse(input.start, input.count);
    const hops = await Promise.all(
      LINEAGE_EDGES[input.direction].map(
        async ([type, direction]) =>
          (await loaders(context).reader.relationships(urnOf(parent), { direction, types: [type], start: 0, count: ALL_EDGES }))
            .relationships,
      ),
    );
    const edges = hops
      .flat()
      .sort((a, b) => (a.type === b.type ? (a.entity < b.entity ? -1 : a.entity > b.entity ? 1 : 0) : a.type < b.type ? -1 : 1));
    const shown = edges.slice(page.start, page.start + page.count);
    const answered = await Promise.all(
      shown.map(async (edge) => ({ type: edge.type, entity: await entityAt(edge.entity, context), degree: 1 })),
    );
    return { start: page.start, count: answered.length, total: edges.length, relationships: answered };
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

  const linked = { relationships, lineage };
  const resolvers: Resolvers = {
    Container: {
      ...common,
      platform: async (parent: Parent, _args: unknown, context: ApiContext) =>
        platformObject(text((await value(urnOf(parent), 'dataPlatformInstance', context))?.platform) ?? 'unknown'),
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'containerProperties', context);
        if (!v) return null;
        const custom = isJsonObject(v.customProperties) ? v.customProperties : {};
        return {
          name: text(v.name) ?? '',
          description: text(v.description),
          qualifiedName: text(v.qualifiedName),
          externalUrl: text(v.externalUrl),
          customProperties: Object.entries(custom).map(([key, val]) => ({ key, value: text(val), associatedUrn: urnOf(parent) })),
        };
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'editableContainerProperties', context);
        return v ? { description: text(v.description) } : null;
      },
      container,
      parentContainers,
      entities: entitiesIn('container'),
      browsePathV2,
      dataPlatformInstance,
      relationships,
    },
    CorpUser: {
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'corpUserInfo', context);
        if (!v) return null;
        const field = (name: string) => text(v[name]);
        return {
          active: v.active === true,
          displayName: field('displayName'),
          email: field('email'),
          title: field('title'),
          firstName: field('firstName'),
          lastName: field('lastName'),
          fullName: field('fullName'),
        };
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'corpUserEditableInfo', context);
        if (!v) return null;
        const field = (name: string) => text(v[name]);
        return {
          displayName: field('displayName'),
          title: field('title'),
          aboutMe: field('aboutMe'),
          email: field('email'),
          slack: field('slack'),
          phone: field('phone'),
        };
      },
      tags: common.tags,
      globalTags: common.globalTags,
      status: common.status,
      exists: common.exists,
      aspects: common.aspects,
    },
    CorpGroup: {
      properties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'corpGroupInfo', context);
        return v
          ? { displayName: text(v.displayName), description: text(v.description), email: text(v.email), slack: text(v.slack) }
          : null;
      },
      editableProperties: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const v = await value(urnOf(parent), 'corpGroupEditableInfo', context);
        return v ? { description: text(v.description), email: text(v.email), slack: text(v.slack) } : null;
      },
      tags: common.tags,
      ownership: common.ownership,
      status: common.status,
      exists: common.exists,
      aspects: common.aspects,
    },
    DataPlatform: { exists: common.exists },
    BrowsePathEntry: {
      entity: (parent, _args, context) => (parent.urn ? entityAt(parent.urn, context) : null),
    },
    Dataset: { container, parentContainers, browsePathV2, dataPlatformInstance, ...linked },
    Dashboard: { container, ...linked },
    Chart: { container, ...linked },
    DataFlow: linked,
    DataJob: linked,
  };
  return resolvers;
}

function pageOrRefuse(start: number | null | undefined, count: number | null | undefined) {
  const page = pageOf(start, count);
  if ('violation' in page) throw badRequest(page.violation);
  return page;
}
