import { findEntityOfUrn } from '@mds/core';
import { badRequest, type ApiContext, type QueryResolvers } from '@mds/schema';
import type { EntitySearcher } from './search';
import type { RequestLoaders } from './request-loaders';
import { entityRef } from './typenames';

type Scenario = 'HOME' | 'SEARCH_RESULTS' | 'ENTITY_PROFILE' | 'SEARCH_BAR';
type RenderType = 'PLATFORM_SEARCH_LIST' | 'TAG_SEARCH_LIST' | 'GLOSSARY_TERM_SEARCH_LIST' | 'DOMAIN_SEARCH_LIST';

/**
 * A module of "the most used values of one search field" (DataHub's EntitySearchAggregationSource and the sources
 * over it): the field's most counted values over the entity types, each a search for that value.
 */
interface AggregationSource {
  moduleId: string;
  title: string;
  renderType: RenderType;
  scenarios: readonly Scenario[];
  field: string;
  /** How many values the module shows at most (DataHub's maxContent; also how many values it counts). */
  max: number;
  /** GraphQL types counted over; absent: every searchable type. */
  types?: readonly string[];
  /** Whether a value may be shown: its entity exists and is not soft-deleted, unless the source says otherwise. */
  shown?: (aspects: ReadonlyMap<string, { value: Record<string, unknown> }> | undefined) => boolean;
}

const live = (aspects: ReadonlyMap<string, { value: Record<string, unknown> }> | undefined) =>
  aspects !== undefined && aspects.size > 0 && aspects.get('status')?.value.removed !== true;

/**
 * DataHub's candidate sources in its order (RecommendationServiceFactory). Its recently viewed, recently edited, most
 * popular and recently searched sources read usage events, which mds does not keep: they answer nothing, as they do on
 * a DataHub whose usage index is empty, and have no row here.
 */
const SOURCES: readonly AggregationSource[] = [
  {
    moduleId: 'Platforms',
    title: 'Platforms',
    renderType: 'PLATFORM_SEARCH_LIST',
    scenarios: ['HOME'],
    field: 'platform',
    max: 40,
    types: [
      'DATASET',
      'DASHBOARD',
      'CHART',
      'MLMODEL',
      'MLMODEL_GROUP',
      'MLFEATURE_TABLE',
      'MLFEATURE',
      'MLPRIMARY_KEY',
      'DATA_FLOW',
      'DATA_JOB',
      'TAG',
      'CONTAINER',
      'NOTEBOOK',
    ],
    // Only platforms with a logo (TopPlatformsSource).
    shown: (aspects) => typeof aspects?.get('dataPlatformInfo')?.value.logoUrl === 'string',
  },
  { moduleId: 'Domains', title: 'Domains', renderType: 'DOMAIN_SEARCH_LIST', scenarios: ['HOME'], field: 'domains', max: 10 },
  { moduleId: 'TopTags', title: 'Top Tags', renderType: 'TAG_SEARCH_LIST', scenarios: ['HOME', 'SEARCH_RESULTS'], field: 'tags', max: 10 },
  {
    moduleId: 'TopTerms',
    title: 'Top Glossary Terms',
    renderType: 'GLOSSARY_TERM_SEARCH_LIST',
    scenarios: ['HOME', 'SEARCH_RESULTS'],
    field: 'glossaryTerms',
    max: 10,
  },
];

/** DataHub's default number of modules. */
const DEFAULT_LIMIT = 10;

/** `listRecommendations` (DataHub's ListRecommendationsResolver over its RecommendationsService). */
export function recommendationResolvers(searchEntities: EntitySearcher, loaders: (context: ApiContext) => RequestLoaders): QueryResolvers {
  async function moduleOf(source: AggregationSource, viewUrn: string | null | undefined, context: ApiContext) {
    const { facets } = await searchEntities.facetsOnly(
      { types: source.types, query: '*', facets: [source.field], viewUrn, searchFlags: { maxAggValues: source.max } },
      context,
    );
    const counted = (facets.find((f) => f.field === source.field)?.aggregations ?? []).filter((a) => a.count > 0);
    const shown = source.shown ?? live;
    const kept = [];
    for (const { value, count } of counted) {
      // Answered by its type's face, as any entity in a result is (a tag by the tags package, …); a type without a face
      // in this composition by its reference.
      const type = findEntityOfUrn(value)?.graphqlType;
      const entity =
        type && shown(await loaders(context).aspects(value)) ? ((await loaders(context).entity(type, value)) ?? entityRef(value)) : null;
      if (entity) kept.push({ value, count, entity });
    }
    if (kept.length === 0) return undefined;
    return {
      title: source.title,
      moduleId: source.moduleId,
      renderType: source.renderType,
      content: kept.map(({ value, count, entity }) => ({
        value,
        entity,
        params: {
          searchParams: {
            types: null,
            query: '',
            filters: [{ field: source.field, values: [value], negated: false, condition: 'EQUAL' as const }],
          },
          entityProfileParams: null,
          contentParams: { count },
        },
      })),
    };
  }

  return {
    listRecommendations: async (_parent, { input }, context) => {
      const limit = input.limit ?? DEFAULT_LIMIT;
      if (!Number.isSafeInteger(limit) || limit < 0) throw badRequest(`'limit' must be a non-negative integer`);
      const scenario = input.requestContext?.scenario ?? 'HOME';
      const eligible = SOURCES.filter((source) => source.scenarios.includes(scenario));
      const modules = await Promise.all(eligible.map((source) => moduleOf(source, input.viewUrn, context)));
      return { modules: modules.filter((m) => m !== undefined).slice(0, limit) };
    },
  };
}
