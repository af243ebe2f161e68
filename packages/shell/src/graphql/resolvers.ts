import { findEntity, isJsonObject } from '@mds/core';
import type { EntityType, FacetFilterInput, Resolvers } from '@mds/schema';
import { GraphQLEnumType, type GraphQLResolveInfo } from 'graphql';
import type { ShellService, View } from '../service';

const CORP_USER_PREFIX = 'urn:li:corpuser:';

/** The GraphQL EntityType of registry names (`dataset` → DATASET); a type this schema's enum lacks is left out. */
function graphqlTypes(names: readonly string[], info: GraphQLResolveInfo): EntityType[] {
  const served = servedEntityTypes(info);
  return names.map((name) => (findEntity(name)?.graphqlType ?? name) as EntityType).filter((type) => served.has(type));
}

function servedEntityTypes(info: GraphQLResolveInfo): ReadonlySet<EntityType> {
  const type = info.schema.getType('EntityType');
  return new Set(type instanceof GraphQLEnumType ? type.getValues().map((v) => v.name as EntityType) : []);
}

const toCriteria = (and: readonly FacetFilterInput[] | null | undefined) =>
  (and ?? []).map((f) => ({
    field: f.field,
    values: f.values ?? (f.value != null ? [f.value] : []),
    condition: f.condition ?? undefined,
    negated: f.negated ?? false,
  }));

function viewObject(view: View, info: GraphQLResolveInfo) {
  return {
    __typename: 'DataHubView' as const,
    urn: view.urn,
    type: 'DATAHUB_VIEW' as const,
    name: view.name,
    description: view.description,
    viewType: view.viewType,
    definition: {
      entityTypes: graphqlTypes(view.entityTypes, info),
      filter: { operator: view.operator, filters: view.filters.map((f) => ({ ...f, condition: f.condition as never })) },
    },
  };
}

/** The shell's queries, each answered by the service as the caller. */
export function createShellResolvers(service: ShellService): Resolvers {
  return {
    Query: {
      appConfig: async (_parent, _args, context) => {
        const config = service.appConfig();
        const enabled = await service.applicationsEnabled(context.actor);
        config.visualConfig.application = { showApplicationInNavigation: enabled, showSidebarSectionWhenEmpty: enabled };
        return config;
      },

      me: async (_parent, _args, context) => {
        const urn = context.actor.urn;
        return {
          __typename: 'AuthenticatedUser',
          corpUser: {
            __typename: 'CorpUser',
            urn,
            type: 'CORP_USER',
            username: urn.startsWith(CORP_USER_PREFIX) ? urn.slice(CORP_USER_PREFIX.length) : urn,
          },
          platformPrivileges: { __typename: 'PlatformPrivileges', ...(await service.platformPrivileges(context.actor)) },
        };
      },

      globalViewsSettings: async (_parent, _args, context) => {
        const views = (await service.globalSettings(context.actor))?.views;
        return { defaultView: isJsonObject(views) && typeof views.defaultView === 'string' ? views.defaultView : null };
      },

      docPropagationSettings: async (_parent, _args, context) => {
        // DataHub answers false while nothing is stored, and the stored column switch once the aspect has one.
        const settings = (await service.globalSettings(context.actor))?.docPropagation;
        return { docColumnPropagation: isJsonObject(settings) ? settings.columnPropagationEnabled !== false : false };
      },

      listMyViews: async (_parent, { input }, context, info) => {
        const page = await service.listViews(context.actor, { mine: true, ...input });
        return { ...page, views: page.views.map((v) => viewObject(v, info)) };
      },

      listGlobalViews: async (_parent, { input }, context, info) => {
        const page = await service.listViews(context.actor, { mine: false, ...input });
        return { ...page, views: page.views.map((v) => viewObject(v, info)) };
      },

      view: async (_parent, { urn }, context, info) => {
        const [view] = await service.views(context.actor, [urn]);
        return view ? viewObject(view, info) : null;
      },

      batchGetStepStates: async (_parent, { input }, context) => ({ results: await service.stepStates(context.actor, input.ids) }),

      getQuickFilters: async (_parent, { input }, context) => {
        const filters = await service.quickFilters(context.actor, input.viewUrn);
        return {
          quickFilters: filters.map((f) => ({
            ...f,
            // A platform's name is its urn's id (DataHub's DataPlatform key), as the other faces of mds give it.
            entity:
              f.field === 'platform'
                ? {
                    __typename: 'DataPlatform',
                    urn: f.value,
                    type: 'DATA_PLATFORM' as const,
                    name: f.value.replace(/^urn:li:dataPlatform:/, ''),
                  }
                : null,
          })),
        };
      },

      listPosts: async (_parent, { input }, context) => {
        const page = await service.listPosts(context.actor, {
          ...input,
          orFilters: input.orFilters?.map((group) => toCriteria(group.and)),
        });
        return {
          ...page,
          posts: page.posts.map((post) => ({
            __typename: 'Post' as const,
            type: 'POST' as const,
            urn: post.urn,
            postType: post.postType as never,
            lastModified: post.lastModified,
            content: { ...post.content, contentType: post.content.contentType as never, media: post.content.media as never },
          })),
        };
      },

      getEntityCounts: async (_parent, { input }, context, info) => {
        const counts = await service.entityCounts(context.actor, input?.viewUrn);
        const served = servedEntityTypes(info);
        const types = input?.types ?? ([...counts.keys()] as EntityType[]).filter((t) => served.has(t)).sort();
        return { counts: types.map((entityType) => ({ entityType, count: counts.get(entityType) ?? 0 })) };
      },
    },
  };
}
