import { findEntity, findEntityOfUrn } from '@mds/core';
import { STRUCTURED_PROPERTY_FIELD_PREFIX, type SearchIndex } from '@mds/search';
import { resolversIfDeclared, sdlFiles, type ApiContext, type ApiModule, type EntityParent } from '@mds/schema';
import type { EntityService } from '../service';
import { browseResolvers } from './browse';
import { catalogResolvers, relationshipsResolver } from './catalog';
import { ASSET_RULES, assetMappings } from './assets';
import { COMMON_RULES } from './common';
import { commonFields, refWithKey, urnArgument } from './common-fields';
import { containerMappings } from './containers';
import { DATASET_RULES, datasetMapping, datasetResolvers, entityObject } from './dataset';
import { entityTypeResolvers } from './mapping/declare';
import { requestLoaders, type EntityFace, type RequestLoaders } from './request-loaders';
import { descriptionResolvers, type DescriptionHandler } from './description';
import { domainResolvers } from './domains';
import { lineageResolvers } from './lineage';
import { entityMutationResolvers } from './entity-mutations';
import { ownerMutationResolvers } from './owner-mutations';
import { incidentResolvers } from './incidents';
import { assertionResolvers } from './assertions';
import { healthResolvers } from './health';
import { contractResolvers } from './contracts';
import { formResolvers } from './forms';
import { formMutationResolvers } from './form-mutations';
import { metadataTestResolvers } from './metadata-tests';
import { mlResolvers } from './ml';
import { processInstanceResolvers } from './process-instances';
import { dataProductResolvers } from './data-products';
import { domainTypeResolvers } from './domains';
import { glossaryResolvers } from './glossary';
import { ownershipTypeMutations, ownershipTypeResolvers } from './ownership-types';
import { recommendationResolvers } from './recommendations';
import { entityRef } from './typenames';
import { policyResolvers } from './policies';
import { profileResolvers } from './profiles';
import { usageResolvers } from './usage';
import { runsResolvers } from './runs';
import { createEntitySearch, sortCriteriaOf } from './search';
import { tagMutationResolvers } from './tag-mutations';
import { GRAPHQL_TYPENAMES } from './typenames';
import { updateMutationResolvers } from './update-mutations';
import { structuredPropertyResolvers } from './structured-properties';
import { applicationResolvers } from './applications';
import { schemaFieldResolvers } from './schema-fields';
import { propertyMutationResolvers } from './property-mutations';
import { glossaryMutationResolvers } from './glossary-mutations';
import { dataProductMutationResolvers } from './data-product-mutations';
import { userMutationResolvers, userResolvers } from './users';
import { queryResolvers } from './queries';
import { lineageMutationResolvers } from './lineage-mutations';
import { versioningResolvers } from './versioning';
import { erModelResolvers } from './er-models';
import { notebookResolvers } from './notebooks';
import { userEditResolvers, userListResolvers, type UserRemoved } from './user-mutations';
import { entityPrivilegesResolvers } from './entity-privileges';
import { businessAttributeNameTaken, businessAttributeResolvers } from './business-attributes';
import { siblingResolvers } from './siblings';
import { ingestionResolvers } from './ingestion';
import { secretResolvers } from './secrets';
import { connectionResolvers } from './connections';
import { assetSettingsResolvers } from './asset-settings';
import { accessResolvers } from './access';
import { logicalParentResolvers } from './logical-parent';
import { timelineResolvers } from './timeline';
import { dashboardUsageResolvers } from './dashboard-usage';
import { versionedDatasetResolvers } from './versioned-dataset';

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
  'DATA_PLATFORM_INSTANCE',
  'GLOSSARY_TERM',
  'GLOSSARY_NODE',
  'DATA_PRODUCT',
  'STRUCTURED_PROPERTY',
  'APPLICATION',
  'SCHEMA_FIELD',
  'QUERY',
  'VERSION_SET',
  'ER_MODEL_RELATIONSHIP',
  'NOTEBOOK',
  'BUSINESS_ATTRIBUTE',
  'ROLE',
];
/** The SDL this module answers: one file beside each resolver file (a type that grows across files uses `extend type`). */
const TYPE_DEFS = sdlFiles(
  import.meta.url,
  'common.graphql',
  'entity-types.graphql',
  'entities.graphql',
  'dataset.graphql',
  'assets.graphql',
  'containers.graphql',
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
  'property-mutations.graphql',
  'glossary-mutations.graphql',
  'data-product-mutations.graphql',
  'lineage.graphql',
  'ml.graphql',
  'metadata-tests.graphql',
  'process-instances.graphql',
  'policies.graphql',
  'incidents.graphql',
  'assertions.graphql',
  'health.graphql',
  'contracts.graphql',
  'forms.graphql',
  'form-mutations.graphql',
  'structured-properties.graphql',
  'applications.graphql',
  'schema-fields.graphql',
  'users.graphql',
  'recommendations.graphql',
  'queries.graphql',
  'lineage-mutations.graphql',
  'versioning.graphql',
  'er-models.graphql',
  'notebooks.graphql',
  'usage.graphql',
  'runs.graphql',
  'user-mutations.graphql',
  'entity-privileges.graphql',
  'business-attributes.graphql',
  'siblings.graphql',
  'ingestion.graphql',
  'secrets.graphql',
  'connections.graphql',
  'asset-settings.graphql',
  'access.graphql',
  'logical-parent.graphql',
  'timeline.graphql',
  'dashboard-usage.graphql',
  'versioned-dataset.graphql',
);
/** Types a search without `types` leaves out, as DataHub's does: platforms are looked up, not searched for. */
const UNSEARCHED = new Set(['DATA_PLATFORM', 'DATA_PLATFORM_INSTANCE', 'QUERY', 'VERSION_SET', 'ER_MODEL_RELATIONSHIP']);
/** How the entity types declared as mappings read their aspects' types where DataHub's mappers rename or reshape. */
const TYPE_RULES = { ...COMMON_RULES, ...DATASET_RULES, ...ASSET_RULES };

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
  /** Ends a removed user's sign-in (the host's auth: password, sessions, tokens). */
  userRemoved?: UserRemoved;
  /**
   * DataHub's SECRET_SERVICE_ENCRYPTION_KEY: encrypts ingestion secrets and connections' blobs as DataHub does (none:
   * both are refused).
   */
  secretKey?: string;
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
  const relationships = relationshipsResolver(loaders);
  const searchable = Object.keys(faces).filter((type) => !UNSEARCHED.has(type));
  const searchEntities = createEntitySearch(search, searchable, loaders);
  const domains = domainResolvers(service, search, now);

  /** The entity of `urn` if stored, through its type's face; null for types without one. */
  const entityOf = async (urn: string, context: ApiContext): Promise<EntityParent | null> => {
    const type = findEntity(urnArgument(urn).entityType);
    if (!type) return null;
    const own = ownObject(urn);
    // A field is seldom stored as an entity of its own: every field urn answers, as DataHub's SchemaFieldType does.
    if (own) return type.name === 'schemaField' || (await loaders(context).aspects(urn))?.has(type.keyAspect) ? own : null;
    return (await loaders(context).entity(type.graphqlType, urn)) ?? null;
  };

  /** The entity of `urn` when the urn is of `entityType` (another type's urn answers null, as DataHub's does). */
  const ofType = async (entityType: string, urn: string, context: ApiContext) =>
    urnArgument(urn).entityType === entityType ? entityOf(urn, context) : null;

  return {
    name: 'entity-graphql',
    typeDefs: TYPE_DEFS,
    // Several maps, each giving some types or fields (one per resolver file): the schema merges them field by field.
    resolvers: [
      {
        Query: {
          ...domains.Query,
          ...userListResolvers(service, search),
          ...browseResolvers(search, searchEntities, loaders),
          ...recommendationResolvers(searchEntities, loaders),
          dataset: (_parent, { urn }, context) => ofType('dataset', urn, context),
          dashboard: (_parent, { urn }, context) => ofType('dashboard', urn, context),
          chart: (_parent, { urn }, context) => ofType('chart', urn, context),
          dataFlow: (_parent, { urn }, context) => ofType('dataFlow', urn, context),
          dataJob: (_parent, { urn }, context) => ofType('dataJob', urn, context),
          container: (_parent, { urn }, context) => ofType('container', urn, context),
          corpUser: (_parent, { urn }, context) => ofType('corpuser', urn, context),
          corpGroup: (_parent, { urn }, context) => ofType('corpGroup', urn, context),
          dataPlatform: (_parent, { urn }, context) => ofType('dataPlatform', urn, context),
          dataPlatformInstance: (_parent, { urn }, context) => ofType('dataPlatformInstance', urn, context),
          entity: (_parent, { urn }, context) => entityOf(urn, context),
          entities: async (_parent, { urns, checkForExistence }, context) => {
            // With checkForExistence, urns of entities not stored are left out (DataHub's filter), not answered null.
            const kept = checkForExistence
              ? (
                  await Promise.all(urns.map(async (urn) => (urnArgument(urn), (await loaders(context).reader.exists(urn)) ? [urn] : [])))
                ).flat()
              : urns;
            return Promise.all(kept.map((urn) => entityOf(urn, context)));
          },
          entityExists: (_parent, { urn }, context) => {
            urnArgument(urn);
            return loaders(context).reader.exists(urn);
          },
          searchAcrossEntities: (_parent, { input }, context) =>
            searchEntities({ ...input, sortCriteria: sortCriteriaOf(input.sortInput) }, context),
          aggregateAcrossEntities: (_parent, { input }, context) => searchEntities.facetsOnly(input, context),
          scrollAcrossEntities: (_parent, { input }, context) =>
            searchEntities.scroll({ ...input, sortCriteria: sortCriteriaOf(input.sortInput) }, context),
        },
        MatchedField: {
          // A matched value that is a urn names its entity, as DataHub's mapper resolves it.
          entity: (parent, _args, context) => urnEntity(parent.value ?? '', loaders(context)),
        },
        FacetMetadata: {
          // A structured property's facet stands for the property, as DataHub's aggregation builder names it.
          entity: (parent, _args, context) => {
            const field = parent.field ?? '';
            return field.startsWith(STRUCTURED_PROPERTY_FIELD_PREFIX)
              ? urnEntity(`urn:li:structuredProperty:${field.slice(STRUCTURED_PROPERTY_FIELD_PREFIX.length)}`, loaders(context))
              : null;
          },
        },
        AggregationMetadata: {
          // A value that is an urn (a tag, an owner, a platform) names its entity, when this server has a face for it.
          entity: (parent, _args, context) => urnEntity(parent.value ?? '', loaders(context)),
        },
        Mutation: {
          ...tagMutationResolvers(service, now),
          ...ownerMutationResolvers(service, now),
          ...entityMutationResolvers(service),
          ...descriptionResolvers(service, options.describers ?? {}),
          ...domains.Mutation,
          ...updateMutationResolvers(service, now),
          ...propertyMutationResolvers(service, now, domains.nameTaken, businessAttributeNameTaken(search)),
          ...glossaryMutationResolvers(service, search, now),
          ...dataProductMutationResolvers(service, now),
          ...ownershipTypeMutations(service, now),
          ...userMutationResolvers(service, now),
          ...lineageMutationResolvers(service, now),
          ...formMutationResolvers(service, search, now),
          ...userEditResolvers(service, now, options.userRemoved),
        },
      },
      // @mds/tags's Tag and @mds/auth's DataHubRole answer their raw aspects here (DataHub's WeaklyTypedAspectsResolver), as every other entity type.
      entityTypeResolvers(
        loaders,
        ['tag', 'dataHubRole'].map((entity) => ({ entity, fields: {}, resolvers: { aspects: commonFields(loaders).aspects } })),
        { rules: TYPE_RULES },
      ),
      entityTypeResolvers(loaders, [datasetMapping(loaders, TYPE_RULES), ...assetMappings(loaders), ...containerMappings(loaders)], {
        rules: TYPE_RULES,
        ref: refWithKey,
      }),
      datasetResolvers(loaders),
      catalogResolvers(loaders, searchEntities),
      // Every entity type answers its edges alike, whichever package declares the type.
      resolversIfDeclared(Object.fromEntries(Object.values(GRAPHQL_TYPENAMES).map((type) => [type, { relationships }]))),
      profileResolvers(service),
      usageResolvers(service, now),
      runsResolvers(loaders),
      lineageResolvers({ loaders, search, searchable, now }),
      mlResolvers(loaders),
      metadataTestResolvers(service, search, loaders, now),
      processInstanceResolvers(service, loaders),
      incidentResolvers(service, loaders, now),
      assertionResolvers(service, loaders, now),
      healthResolvers(service, loaders),
      contractResolvers(service, loaders, now),
      ...formResolvers(loaders),
      ...glossaryResolvers(loaders, search, searchEntities),
      ...domainTypeResolvers(loaders, searchEntities),
      ...dataProductResolvers(loaders, searchEntities),
      ...ownershipTypeResolvers(loaders, search),
      ...structuredPropertyResolvers(service, loaders, now),
      ...applicationResolvers(service, loaders, searchEntities, now),
      schemaFieldResolvers(loaders),
      userResolvers(loaders, TYPE_RULES),
      policyResolvers(service, loaders, now),
      ...queryResolvers(service, loaders, search, now),
      ...versioningResolvers(service, loaders, searchEntities, now),
      ...erModelResolvers(service, loaders, now),
      notebookResolvers(loaders),
      entityPrivilegesResolvers(service),
      ...businessAttributeResolvers(service, search, loaders, now),
      siblingResolvers(service, loaders, searchEntities),
      ingestionResolvers(service, search, loaders, now),
      secretResolvers(service, search, loaders, now, options.secretKey),
      ...connectionResolvers(service, loaders, options.secretKey),
      ...assetSettingsResolvers(service, loaders),
      accessResolvers(loaders),
      logicalParentResolvers(service, loaders, now),
      timelineResolvers(loaders),
      dashboardUsageResolvers(service),
      versionedDatasetResolvers(loaders, TYPE_RULES),
    ],
  };
}

/** The GraphQL object of an urn of a type this package answers (what its urn says; its fields load themselves). */
function ownObject(urn: string): EntityParent | undefined {
  const ref = entityObject(urn) ?? entityRef(urn);
  return ref && OWN_TYPES.includes(ref.type as string) ? ref : undefined;
}

/** The entity a value names when it is a urn of a type with a face; null otherwise (not a urn, no face, absent). */
async function urnEntity(value: string, loaders: RequestLoaders): Promise<EntityParent | null> {
  const type = value.startsWith('urn:li:') ? findEntityOfUrn(value)?.graphqlType : undefined;
  return type ? ((await loaders.entity(type, value)) ?? null) : null;
}
