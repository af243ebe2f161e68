import { findEntity, parseEntityUrn, UrnError, findEntityOfUrn } from '@mds/core';
import type { SearchIndex } from '@mds/search';
import { badRequest, sdlFiles, type ApiContext, type ApiModule, type EntityParent } from '@mds/schema';
import type { EntityService } from '../service';
import { browseResolvers } from './browse';
import { catalogResolvers } from './catalog';
import { datasetResolvers, entityObject } from './dataset';
import { entityRef } from './typenames';
import { requestLoaders, type EntityFace } from './request-loaders';
import { descriptionResolvers, type DescriptionHandler } from './description';
import { dataProductResolvers } from './data-products';
import { domainResolvers, domainTypeResolvers } from './domains';
import { glossaryResolvers } from './glossary';
import { entityMutationResolvers } from './entity-mutations';
import { ownerMutationResolvers } from './owner-mutations';
import { ownershipTypeResolvers } from './ownership-types';
import { profileResolvers } from './profiles';
import { createEntitySearch } from './search';
import { tagMutationResolvers } from './tag-mutations';
import { updateMutationResolvers } from './update-mutations';

/** The entity types this package answers itself, from their urns and aspects. */
const OWN_TYPES = [
  'DATASET',
  'DASHBOARD',
  'CHART',
  'DATA_FLOW',
  'DATA_JOB',
  'CONTAINER',
  'CORP_USER',
  'CORP_GROUP',
  'DOMAIN',
  'DATA_PLATFORM',
  'GLOSSARY_TERM',
  'GLOSSARY_NODE',
  'DATA_PRODUCT',
];
/** The SDL this module answers: one file beside each resolver file (a type that grows across files uses `extend type`). */
const TYPE_DEFS = sdlFiles(
  import.meta.url,
  'entities.graphql',
  'dataset.graphql',
  'assets.graphql',
  'catalog.graphql',
  'profiles.graphql',
  'browse.graphql',
  'domains.graphql',
  'glossary.graphql',
  'data-products.graphql',
  'ownership-types.graphql',
  'tag-mutations.graphql',
  'owner-mutations.graphql',
  'entity-mutations.graphql',
  'description.graphql',
  'update-mutations.graphql',
);
/** Types a search without `types` leaves out, as DataHub's does: platforms are looked up, not searched for. */
const UNSEARCHED = new Set(['DATA_PLATFORM']);

/**
 * The entity-wide GraphQL queries (`dataset`, `entity`, `entities`, `entityExists`, `searchAcrossEntities`), the
 * `Dataset` face, and the mutations of entities' tags, owners, deprecation, domains and status (*-mutations.ts). Other entity types answer through the `faces`
 * their packages give (`@mds/tags`: `TAG`), by GraphQL `EntityType`. All reads of one request are batched
 * (request-loaders.ts).
 */
export function createEntityGraphql(options: {
  service: EntityService;
  search: SearchIndex;
  faces?: Readonly<Record<string, EntityFace>>;
  /** updateDescription of the types a package describes itself, by registry name (`@mds/tags`: `tag`). */
  describers?: Readonly<Record<string, DescriptionHandler>>;
  now?: () => number;
}): ApiModule {
  const { service, search } = options;
  const now = options.now ?? Date.now;
  // An entity the caller knows exists (a search hit) needs no read to be answered: its fields load themselves.
  const ownFace: EntityFace = async (urns) => {
    const answered = new Map<string, EntityParent>();
    for (const urn of urns) {
      const found = ownObject(urn);
      if (found) answered.set(urn, found);
    }
    return answered;
  };
  const faces: Readonly<Record<string, EntityFace>> = { ...options.faces, ...Object.fromEntries(OWN_TYPES.map((type) => [type, ownFace])) };
  const loaders = requestLoaders(service, faces);
  const searchable = Object.keys(faces).filter((type) => !UNSEARCHED.has(type));
  const searchEntities = createEntitySearch(search, searchable, loaders);
  const domains = domainResolvers(service, search, now);

  /** The entity of `urn` if stored, through its type's face; null for types without one. */
  const entityOf = async (urn: string, context: ApiContext): Promise<EntityParent | null> => {
    const type = findEntity(parseArgument(urn).entityType);
    if (!type) return null;
    const own = ownObject(urn);
    if (own) return (await loaders(context).aspects(urn))?.has(type.keyAspect) ? own : null;
    return (await loaders(context).entity(type.graphqlType, urn)) ?? null;
  };

  /** The entity of `urn` when the urn is of `entityType` (another type's urn answers null, as DataHub's does). */
  const ofType = async (entityType: string, urn: string, context: ApiContext) =>
    parseArgument(urn).entityType === entityType ? entityOf(urn, context) : null;

  return {
    name: 'entity-graphql',
    typeDefs: TYPE_DEFS,
    // Several maps, each giving some types or fields (one per resolver file): the schema merges them field by field.
    resolvers: [
      {
        Query: {
          ...domains.Query,
          ...browseResolvers(search, searchable, searchEntities, loaders),
          dataset: (_parent, { urn }, context) => ofType('dataset', urn, context),
          dashboard: (_parent, { urn }, context) => ofType('dashboard', urn, context),
          chart: (_parent, { urn }, context) => ofType('chart', urn, context),
          dataFlow: (_parent, { urn }, context) => ofType('dataFlow', urn, context),
          dataJob: (_parent, { urn }, context) => ofType('dataJob', urn, context),
          container: (_parent, { urn }, context) => ofType('container', urn, context),
          corpUser: (_parent, { urn }, context) => ofType('corpuser', urn, context),
          corpGroup: (_parent, { urn }, context) => ofType('corpGroup', urn, context),
          dataPlatform: (_parent, { urn }, context) => ofType('dataPlatform', urn, context),
          entity: (_parent, { urn }, context) => entityOf(urn, context),
          entities: (_parent, { urns }, context) => Promise.all(urns.map((urn) => entityOf(urn, context))),
          entityExists: (_parent, { urn }, context) => {
            parseArgument(urn);
            return loaders(context).reader.exists(urn);
          },
          searchAcrossEntities: (_parent, { input }, context) =>
            searchEntities({ ...input, sortCriteria: input.sortInput?.sortCriteria }, context),
        },
        AggregationMetadata: {
          // A value that is an urn (a tag, an owner, a platform) names its entity, when this server has a face for it.
          entity: async (parent, _args, context) => {
            const value = parent.value ?? '';
            const type = findEntityOfUrn(value)?.graphqlType;
            return type ? ((await loaders(context).entity(type, value)) ?? null) : null;
          },
        },
        Mutation: {
          ...tagMutationResolvers(service),
          ...ownerMutationResolvers(service, now),
          ...entityMutationResolvers(service),
          ...descriptionResolvers(service, options.describers ?? {}),
          ...domains.Mutation,
          ...updateMutationResolvers(service, now),
        },
      },
      datasetResolvers(loaders),
      catalogResolvers(loaders, searchEntities),
      profileResolvers(service),
      ...glossaryResolvers(loaders, search),
      ...domainTypeResolvers(loaders, searchEntities),
      ...dataProductResolvers(loaders, searchEntities),
      ...ownershipTypeResolvers(loaders, search),
    ],
  };
}

/** The GraphQL object of an urn of a type this package answers (what its urn says; its fields load themselves). */
function ownObject(urn: string): EntityParent | undefined {
  const ref = entityObject(urn) ?? entityRef(urn);
  return ref && OWN_TYPES.includes(ref.type as string) ? ref : undefined;
}

/** A urn argument, or DataHub's 400 `Invalid urn: <urn>` (entities-api §9.1; DataHub itself answers 500). */
function parseArgument(urn: string) {
  try {
    return parseEntityUrn(urn);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn: ${urn}`);
    throw error;
  }
}
