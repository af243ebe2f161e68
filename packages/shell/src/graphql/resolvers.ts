import { findEntity, isJsonObject } from '@mds/core';
import { badRequest, type Actor, type EntityType, type FacetFilterInput, type Resolvers } from '@mds/schema';
import { GraphQLEnumType, type GraphQLResolveInfo } from 'graphql';
import type { ShellEdits } from '../edits';
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

/** A required boolean of DataHub's model sent as null: a 400 naming the field. */
function requiredSwitch(value: boolean | null | undefined, field: string): boolean {
  if (typeof value !== 'boolean') throw badRequest(`Field '${field}' must be true or false.`);
  return value;
}

/** The shell's queries and edits, each answered by the service as the caller. */
export function createShellResolvers(service: ShellService, edits: ShellEdits): Resolvers {
  /** A view as stored after an edit, mapped as the queries map it. */
  const storedView = async (actor: Actor, urn: string, info: GraphQLResolveInfo) => {
    const [view] = await service.views(actor, [urn]);
    return view ? viewObject(view, info) : null;
  };
  return {
    Mutation: {
      createView: async (_parent, { input }, { actor }, info) => storedView(actor, await edits.createView(actor, input), info),
      updateView: async (_parent, { urn, input }, { actor }, info) => {
        await edits.updateView(actor, urn, input);
        return storedView(actor, urn, info);
      },
      deleteView: async (_parent, { urn }, { actor }) => {
        await edits.deleteView(actor, urn);
        return true;
      },
      createPost: async (_parent, { input }, { actor }) => {
        await edits.createPost(actor, input);
        return true;
      },
      updatePost: async (_parent, { input }, { actor }) => {
        await edits.updatePost(actor, input);
        return true;
      },
      deletePost: async (_parent, { urn }, { actor }) => {
        await edits.deletePost(actor, urn);
        return true;
      },
      batchUpdateStepStates: async (_parent, { input }, { actor }) => ({ results: await edits.updateStepStates(actor, input.states) }),
      updateGlobalViewsSettings: async (_parent, { input }, { actor }) => {
        await edits.updateGlobalSettings(actor, { views: { defaultView: input.defaultView ?? null } });
        return true;
      },
      updateDocPropagationSettings: async (_parent, { input }, { actor }) => {
        const columnPropagationEnabled = requiredSwitch(input.docColumnPropagation, 'docColumnPropagation');
        await edits.updateGlobalSettings(actor, { docPropagation: { columnPropagationEnabled } });
        return true;
      },
      updateApplicationsSettings: async (_parent, { input }, { actor }) => {
        await edits.updateGlobalSettings(actor, { applications: { enabled: requiredSwitch(input.enabled, 'enabled') } });
        return true;
      },
    },

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
