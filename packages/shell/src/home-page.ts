import { Privilege } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import { anyOf, ItemWriteError, type EntityService, type Grant, type PrivilegeGroups } from '@mds/entities';
import { badRequest, forbidden, type Actor, type Resolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { GLOBAL_SETTINGS_URN } from './service';

const TEMPLATES = anyOf(Privilege.MANAGE_HOME_PAGE_TEMPLATES);
/** No privilege asked: personal templates and modules are anyone's own. */
const ANY_CALLER: PrivilegeGroups = [[]];
const TEMPLATE_ASPECT = 'dataHubPageTemplateProperties';
const MODULE_ASPECT = 'dataHubPageModuleProperties';
const TEMPLATE_PREFIX = 'urn:li:dataHubPageTemplate:';
const MODULE_PREFIX = 'urn:li:dataHubPageModule:';
/** DataHub's own template and modules (its bootstrap data), which it refuses to delete. */
const DEFAULT_TEMPLATE = `${TEMPLATE_PREFIX}home_default_1`;
const DEFAULT_MODULES = new Set(
  ['your_assets', 'your_subscriptions', 'top_domains', 'assets', 'child_hierarchy', 'data_products', 'related_terms'].map(
    (id) => MODULE_PREFIX + id,
  ),
);
/** Module types the UI may create, and the params each needs (DataHub's UpsertPageModuleResolver.validateInput). */
const PARAMS_OF: Record<string, { field: string; what: string }> = {
  RICH_TEXT: { field: 'richTextParams', what: 'rich text params for rich text module' },
  LINK: { field: 'linkParams', what: 'link params for link module' },
  ASSET_COLLECTION: { field: 'assetCollectionParams', what: 'asset collection params for asset collection module' },
  HIERARCHY: { field: 'hierarchyViewParams', what: 'hierarchy view params for hierarchy view module' },
};

type Value = Record<string, unknown>;
type Stamp = { actor: string; time: number };

const scopeOf = (value: Value | undefined) => (isJsonObject(value?.visibility) ? value.visibility.scope : undefined);
const creatorOf = (value: Value | undefined) => (isJsonObject(value?.created) ? value.created.actor : undefined);
/** A stamp as ResolvedAuditStamp: the actor as a CorpUser whose fields load themselves. */
const resolvedStamp = (stamp: unknown) => {
  const s = isJsonObject(stamp) ? stamp : {};
  const actor = typeof s.actor === 'string' ? s.actor : undefined;
  return {
    time: typeof s.time === 'number' ? s.time : 0,
    actor: actor
      ? { __typename: 'CorpUser' as const, urn: actor, type: 'CORP_USER' as const, username: actor.replace(/^urn:li:corpuser:/, '') }
      : null,
  };
};
const ref = (typename: 'DataHubPageTemplate' | 'DataHubPageModule', urn: string) => ({
  __typename: typename,
  urn,
  type: typename === 'DataHubPageTemplate' ? ('DATAHUB_PAGE_TEMPLATE' as const) : ('DATAHUB_PAGE_MODULE' as const),
});

/**
 * The home page's templates and modules, as DataHub's PageTemplateService, PageModuleService and their resolvers keep
 * them: `dataHubPageTemplateProperties` and `dataHubPageModuleProperties` written through the entity service; global
 * ones need MANAGE_HOME_PAGE_TEMPLATES, personal ones are their creator's.
 */
export function homePageResolvers(service: EntityService): Resolvers {
  const stored = async (actor: Actor, urn: string, aspect: string): Promise<Value | undefined> =>
    (await service.reader(actor, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const write = async (grant: Grant, urn: string, aspect: string, value: Value, stamp: Stamp) => {
    try {
      await service.write(grant, [{ urn, aspect, changeType: 'UPSERT', value }], stamp);
    } catch (error) {
      throw error instanceof ItemWriteError ? error.error : error;
    }
  };

  /**
   * The grant to write or delete `urn` of `scope`: GLOBAL needs MANAGE_HOME_PAGE_TEMPLATES; a PERSONAL one that is stored
   * is its creator's alone (DataHub checks this on delete; mds on every change).
   */
  const grantFor = async (actor: Actor, urn: string, scope: unknown, existing: Value | undefined, denied: string) => {
    if (scope === 'GLOBAL' || scopeOf(existing) === 'GLOBAL') return service.authorize(actor, TEMPLATES, [urn], denied);
    if (existing && creatorOf(existing) !== actor.urn) throw forbidden(denied);
    return service.authorize(actor, ANY_CALLER, [urn]);
  };

  const remove = async (actor: Actor, urn: string, kind: 'template' | 'module') => {
    const label = kind === 'template' ? 'page template' : 'page module';
    const existing = await stored(actor, urn, kind === 'template' ? TEMPLATE_ASPECT : MODULE_ASPECT);
    if (!existing) throw badRequest(`Attempted to delete a ${label} that does not exist with urn ${urn}`);
    const denied =
      scopeOf(existing) === 'GLOBAL'
        ? `User is unauthorized to delete global ${kind}s.`
        : `Attempted to delete personal a ${label} that was not created by the actor`;
    const grant = await grantFor(actor, urn, undefined, existing, denied);
    await service.deleteEntity(grant, urn);
    return true;
  };

  return {
    Query: {
      globalHomePageSettings: async (_parent, _args, { actor }) => {
        const settings = await stored(actor, GLOBAL_SETTINGS_URN, 'globalSettingsInfo');
        const homePage = isJsonObject(settings?.homePage) ? settings.homePage : undefined;
        const template = typeof homePage?.defaultTemplate === 'string' ? homePage.defaultTemplate : undefined;
        // DataHub answers the template only when it is stored (its loader drops a missing one).
        const exists = template !== undefined && (await stored(actor, template, TEMPLATE_ASPECT)) !== undefined;
        return { defaultTemplate: exists ? ref('DataHubPageTemplate', template) : null };
      },
    },
    Mutation: {
      upsertPageTemplate: async (_parent, { input }, { actor }) => {
        const urn = input.urn ?? TEMPLATE_PREFIX + randomUUID();
        if (!urn.startsWith(TEMPLATE_PREFIX)) throw badRequest(`Field 'urn': ${urn} is no page template urn.`);
        const existing = await stored(actor, urn, TEMPLATE_ASPECT);
        const grant = await grantFor(actor, urn, input.scope, existing, 'User does not have permission to update global templates.');
        const modules = input.rows.flatMap((row) => row.modules);
        const found = await service.reader(actor, { api: 'graphql' }).latest(modules, [MODULE_ASPECT]);
        for (const module of modules)
          if (!found.get(module)?.get(MODULE_ASPECT)) throw badRequest(`Module with urn ${module} does not exist`);
        const stamp = { actor: actor.urn, time: Date.now() };
        const value: Value = {
          ...existing,
          rows: input.rows.map((row) => ({ modules: [...row.modules] })),
          surface: { surfaceType: input.surfaceType },
          visibility: { scope: input.scope },
          created: existing?.created ?? stamp,
          lastModified: stamp,
        };
        if (input.assetSummary)
          value.assetSummary = {
            summaryElements: input.assetSummary.summaryElements.map((e) => ({
              elementType: e.elementType,
              ...(e.structuredPropertyUrn ? { structuredPropertyUrn: e.structuredPropertyUrn } : {}),
            })),
          };
        await write(grant, urn, TEMPLATE_ASPECT, value, stamp);
        return ref('DataHubPageTemplate', urn);
      },
      deletePageTemplate: async (_parent, { input }, { actor }) => {
        if (input.urn === DEFAULT_TEMPLATE) throw forbidden('Attempted to delete the default page template');
        return remove(actor, input.urn, 'template');
      },
      upsertPageModule: async (_parent, { input }, { actor }) => {
        const urn = input.urn ?? MODULE_PREFIX + randomUUID();
        if (!urn.startsWith(MODULE_PREFIX)) throw badRequest(`Field 'urn': ${urn} is no page module urn.`);
        const needs = PARAMS_OF[input.type];
        if (!needs) throw badRequest('Attempted to create an unsupported module type.');
        const params = input.params as Record<string, unknown>;
        if (params[needs.field] == null) throw badRequest(`Did not provide ${needs.what}`);
        const existing = await stored(actor, urn, MODULE_ASPECT);
        const grant = await grantFor(actor, urn, input.scope, existing, 'User does not have permission to update global modules.');
        const stamp = { actor: actor.urn, time: Date.now() };
        const value: Value = {
          ...existing,
          name: input.name,
          type: input.type,
          visibility: { scope: input.scope },
          params: withoutNulls(params),
          created: existing?.created ?? stamp,
          lastModified: stamp,
        };
        await write(grant, urn, MODULE_ASPECT, value, stamp);
        return ref('DataHubPageModule', urn);
      },
      deletePageModule: async (_parent, { input }, { actor }) => {
        if (DEFAULT_MODULES.has(input.urn)) throw badRequest(`Cannot delete default page module with urn ${input.urn}`);
        return remove(actor, input.urn, 'module');
      },
    },
    DataHubPageTemplate: {
      properties: async (parent, _args, { actor }) => {
        const value = (await stored(actor, parent.urn, TEMPLATE_ASPECT)) ?? {};
        const rows = Array.isArray(value.rows) ? value.rows.filter(isJsonObject) : [];
        const summary = isJsonObject(value.assetSummary) ? value.assetSummary : undefined;
        return {
          rows: rows.map((row) => ({
            modules: (Array.isArray(row.modules) ? row.modules : [])
              .filter((m): m is string => typeof m === 'string')
              .map((m) => ref('DataHubPageModule', m)),
          })),
          surface: { surfaceType: (isJsonObject(value.surface) ? value.surface.surfaceType : null) as never },
          visibility: { scope: scopeOf(value) as never },
          assetSummary: summary
            ? {
                summaryElements: (Array.isArray(summary.summaryElements) ? summary.summaryElements.filter(isJsonObject) : []).map((e) => ({
                  elementType: e.elementType as never,
                  structuredProperty:
                    typeof e.structuredPropertyUrn === 'string'
                      ? { __typename: 'StructuredPropertyEntity', urn: e.structuredPropertyUrn, type: 'STRUCTURED_PROPERTY' }
                      : null,
                })),
              }
            : null,
          created: resolvedStamp(value.created),
          lastModified: resolvedStamp(value.lastModified),
        };
      },
    },
    DataHubPageModule: {
      exists: async (parent, _args, { actor }) => (await stored(actor, parent.urn, MODULE_ASPECT)) !== undefined,
      properties: async (parent, _args, { actor }) => {
        const value = (await stored(actor, parent.urn, MODULE_ASPECT)) ?? {};
        const params = isJsonObject(value.params) ? value.params : {};
        return {
          name: typeof value.name === 'string' ? value.name : '',
          type: value.type as never,
          visibility: { scope: scopeOf(value) as never },
          params: {
            richTextParams: params.richTextParams ?? null,
            linkParams: params.linkParams ?? null,
            assetCollectionParams: params.assetCollectionParams ?? null,
            hierarchyViewParams: isJsonObject(params.hierarchyViewParams) ? { assetUrns: [], ...params.hierarchyViewParams } : null,
          },
          created: resolvedStamp(value.created),
          lastModified: resolvedStamp(value.lastModified),
        } as never;
      },
    },
  };
}

/** An input object as DataHub's model stores it: absent fields left out rather than null. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v == null ? [] : [[k, withoutNulls(v)]])));
}
