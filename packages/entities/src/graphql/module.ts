import { findEntity, pageOf, parseUrn, UrnError } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex, type SearchQuery } from '@mds/search';
import { badRequest, type ApiContext, type ApiModule, type FacetFilterInput, type ResolversTypes, type SearchAcrossEntitiesInput } from '@mds/schema';
import type { AspectStore } from '../aspect-store';
import { indexSort } from '../search-actions';
import { datasetResolvers, entityObject } from './dataset';
import { requestLoaders, type EntityFace } from './request-loaders';
import { descriptionResolvers, type DescriptionHandler } from './description';
import { entityMutationResolvers } from './entity-mutations';
import { ownerMutationResolvers } from './owner-mutations';
import { tagMutationResolvers } from './tag-mutations';

/**
 * The entity-wide GraphQL queries (`dataset`, `entity`, `entities`, `entityExists`, `searchAcrossEntities`), the
 * `Dataset` face, and the mutations of entities' tags, owners, deprecation, domains and status (*-mutations.ts). Other entity types answer through the `faces`
 * their packages give (`@mds/tags`: `TAG`), by GraphQL `EntityType`. All reads of one request are batched
 * (request-loaders.ts).
 */
export function createEntityGraphql(options: {
  store: AspectStore;
  search: SearchIndex;
  faces?: Readonly<Record<string, EntityFace>>;
  /** updateDescription of the types a package describes itself, by registry name (`@mds/tags`: `tag`). */
  describers?: Readonly<Record<string, DescriptionHandler>>;
  now?: () => number;
}): ApiModule {
  const { store, search } = options;
  const now = options.now ?? Date.now;
  // An entity the caller knows exists (a search hit) needs no read to be answered: its fields load themselves.
  const ownFace: EntityFace = async (urns) => {
    const answered = new Map<string, ResolversTypes['Entity']>();
    for (const urn of urns) {
      const found = entityObject(urn);
      if (found) answered.set(urn, found);
    }
    return answered;
  };
  const faces: Readonly<Record<string, EntityFace>> = { ...options.faces, DATASET: ownFace, DASHBOARD: ownFace, CHART: ownFace, DATA_FLOW: ownFace, DATA_JOB: ownFace };
  const loaders = requestLoaders(store, faces);

  /** The entity of `urn` if stored, through its type's face; null for types without one. */
  const entityOf = async (urn: string, context: ApiContext): Promise<ResolversTypes['Entity'] | null> => {
    const type = findEntity(parseArgument(urn).entityType);
    if (!type) return null;
    const own = entityObject(urn);
    if (own) return (await loaders(context).aspects(urn))?.has(type.keyAspect) ? own : null;
    return (await loaders(context).entity(type.graphqlType, urn)) ?? null;
  };

  /** The entity of `urn` when the urn is of `entityType` (another type's urn answers null, as DataHub's does). */
  const ofType = async (entityType: string, urn: string, context: ApiContext) => (parseArgument(urn).entityType === entityType ? entityOf(urn, context) : null);

  return {
    name: 'entity-graphql',
    resolvers: {
      Query: {
        dataset: (_parent, { urn }, context) => ofType('dataset', urn, context) as Promise<ResolversTypes['Dataset'] | null>,
        dashboard: (_parent, { urn }, context) => ofType('dashboard', urn, context) as Promise<ResolversTypes['Dashboard'] | null>,
        chart: (_parent, { urn }, context) => ofType('chart', urn, context) as Promise<ResolversTypes['Chart'] | null>,
        dataFlow: (_parent, { urn }, context) => ofType('dataFlow', urn, context) as Promise<ResolversTypes['DataFlow'] | null>,
        dataJob: (_parent, { urn }, context) => ofType('dataJob', urn, context) as Promise<ResolversTypes['DataJob'] | null>,
        entity: (_parent, { urn }, context) => entityOf(urn, context),
        entities: (_parent, { urns }, context) => Promise.all(urns.map((urn) => entityOf(urn, context))),
        entityExists: (_parent, { urn }) => {
          parseArgument(urn);
          return store.exists(urn);
        },
        searchAcrossEntities: async (_parent, { input }, context) => {
          const page = pageOf(input.start, input.count);
          if ('violation' in page) throw badRequest(page.violation);
          const types = input.types?.length ? input.types.filter((type) => Object.hasOwn(faces, type)) : Object.keys(faces);
          if (types.length === 0) return { start: page.start, count: 0, total: 0, searchResults: [], facets: [] };
          const listing = input.query.trim() === '' || input.query.trim() === '*';
          const flags = input.searchFlags ?? {};
          let found;
          try {
            found = await search.search({
              entityTypes: types,
              input: input.query,
              filters: filterGroups(input),
              start: page.start,
              count: page.count,
              includeSoftDeleted: flags.includeSoftDeleted ?? false,
              facets: flags.skipAggregates ? [] : undefined,
              maxFacetValues: flags.maxAggValues ?? undefined,
              sort: sortOf(input.sortInput?.sortCriteria ?? []) ?? (listing ? { field: 'name', order: 'ASCENDING' } : undefined),
            });
          } catch (error) {
            // An unknown field or an unsupported condition: the caller's 400, in the index's words.
            if (error instanceof SearchQueryError) throw badRequest(error.message);
            throw error;
          }
          const answered = await Promise.all(found.hits.map((hit) => loaders(context).entity(findEntity(hit.entityType)?.graphqlType ?? '', hit.urn)));
          const searchResults = found.hits.flatMap((hit, i) => (answered[i] ? [{ entity: answered[i], matchedFields: hit.matchedFields }] : []));
          const facets = found.facets.map((facet) => ({ field: facet.field, displayName: facet.displayName, aggregations: facet.values.map(({ value, count }) => ({ value, count })) }));
          return { start: page.start, count: searchResults.length, total: found.total, searchResults, facets };
        },
      },
      AggregationMetadata: {
        // A value that is an urn (a tag, an owner, a platform) names its entity, when this server has a face for it.
        entity: async (parent, _args, context) => {
          const value = parent.value ?? '';
          let type: string | undefined;
          try {
            type = value.startsWith('urn:li:') ? findEntity(parseUrn(value).entityType)?.graphqlType : undefined;
          } catch (error) {
            if (!(error instanceof UrnError)) throw error;
          }
          return type ? ((await loaders(context).entity(type, value)) ?? null) : null;
        },
      },
      ...datasetResolvers(store, loaders),
      Mutation: {
        ...tagMutationResolvers(store, now),
        ...ownerMutationResolvers(store, now),
        ...entityMutationResolvers(store, now),
        ...descriptionResolvers(store, now, options.describers ?? {}),
      },
    },
  };
}

/** A urn argument, or DataHub's 400 `Invalid urn: <urn>` (entities-api §9.1; DataHub itself answers 500). */
function parseArgument(urn: string) {
  try {
    return parseUrn(urn);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn: ${urn}`);
    throw error;
  }
}

/** `orFilters`, or else the deprecated `filters` as one and-group (entities-api §9.3). */
function filterGroups(input: SearchAcrossEntitiesInput): Criterion[][] {
  const criterion = (f: FacetFilterInput): Criterion => ({
    field: f.field,
    values: f.values ?? undefined,
    value: f.value ?? undefined,
    condition: f.condition ?? undefined,
    negated: f.negated ?? false,
  });
  const ored = (input.orFilters ?? []).map((group) => (group.and ?? []).map(criterion)).filter((group) => group.length > 0);
  if (ored.length) return ored;
  return input.filters?.length ? [input.filters.map(criterion)] : [];
}

/** The first sort criterion, as the index can sort. */
function sortOf(criteria: readonly { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' }[]): SearchQuery['sort'] {
  const [first] = criteria;
  return first && indexSort(first.field, first.sortOrder);
}
