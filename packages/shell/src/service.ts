import { findEntity, isJsonObject } from '@mds/core';
import type { EntityReader, EntityService } from '@mds/entities';
import { SearchQueryError, type Criterion, type SearchIndex } from '@mds/search';
import { badRequest, type Actor } from '@mds/schema';
import type { ShellConfig } from './config';
import { flagPrivileges, PLATFORM_FLAGS, PLATFORM_PRIVILEGES, RESOURCE_PRIVILEGES, type PlatformFlag } from './privileges';

/** The one globalSettings entity DataHub keeps its settings in (SettingsService's urn). */
export const GLOBAL_SETTINGS_URN = 'urn:li:globalSettings:0';
export const STEP_STATE_URN_PREFIX = 'urn:li:dataHubStepState:';

/** Page sizes of the list queries (DataHub's default count 20); a count above MAX_COUNT is a 400. */
export const DEFAULT_COUNT = 20;
export const MAX_COUNT = 1000;
/** At most this many ids per batchGetStepStates. */
export const MAX_STEP_IDS = 1000;
/** Views and posts are sorted newest first among at most this many matches (mds's index sorts by name or urn only). */
export const MAX_SORTED = 10_000;

/** A stored view: `dataHubViewInfo` as DataHub's DataHubViewMapper shows it. */
export interface View {
  urn: string;
  name: string;
  description: string | null;
  viewType: 'GLOBAL' | 'PERSONAL';
  /** Registry names, as stored. */
  entityTypes: string[];
  operator: 'AND' | 'OR';
  filters: { field: string; values: string[]; condition: string | null; negated: boolean | null }[];
  created: number;
}

export interface Post {
  urn: string;
  postType: string;
  content: {
    contentType: string;
    title: string;
    description: string | null;
    link: string | null;
    media: { type: string; location: string } | null;
  };
  lastModified: { time: number; actor: string | null };
}

export interface ShellDeps {
  config: ShellConfig;
  version: string;
  entities: { service: EntityService; search: SearchIndex };
  /** Whether usage analytics are kept (@mds/analytics composed beside): `analyticsConfig.enabled`. */
  analyticsEnabled?: boolean;
}

const PLATFORM = 'platform';
const ENTITY_TYPE = '_entityType';
const PLATFORM_COUNT = 5;
const SOURCE_TYPES = [
  'dataset',
  'dashboard',
  'dataflow',
  'datajob',
  'chart',
  'container',
  'mlmodel',
  'mlmodelgroup',
  'mlfeature',
  'mlfeaturetable',
  'mlprimarykey',
];
const SOURCE_COUNT = 3;
const CATALOG_TYPES = ['domain', 'glossaryterm', 'corpgroup', 'corpuser'];
const CATALOG_COUNT = 2;

/** The GraphQL EntityType of a registry name or of a GraphQL name (`dataset`, `DATASET` → DATASET). */
const graphqlTypeOf = (name: string): string => findEntity(name)?.graphqlType ?? name.toUpperCase();
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const stringsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * What the web UI asks before any page: settings, the caller's flags, views, onboarding steps, quick filters, posts
 * and counts. Reads go through the entity service as the caller (GraphQL's rule), searches through the search port.
 */
export class ShellService {
  constructor(private readonly deps: ShellDeps) {}

  /** A search of the index; a filter the index cannot apply (an unknown field, a bad value) is the caller's 400. */
  private async search(query: Parameters<SearchIndex['search']>[0]) {
    try {
      return await this.deps.entities.search.search(query);
    } catch (error) {
      if (error instanceof SearchQueryError) throw badRequest(error.message);
      throw error;
    }
  }

  private reader(actor: Actor): EntityReader {
    return this.deps.entities.service.reader(actor, { api: 'graphql' });
  }

  /** `appConfig`: the environment's settings, and what mds has of DataHub's optional services (README: "appConfig"). */
  appConfig() {
    const { config, version } = this.deps;
    const v = config.visual;
    return {
      appVersion: version,
      analyticsConfig: { enabled: this.deps.analyticsEnabled ?? false },
      authConfig: { tokenAuthEnabled: config.tokenAuthEnabled },
      chromeExtensionConfig: { ...config.chromeExtension },
      featureFlags: { ...config.featureFlags },
      homePageConfig: { firstInPersonalSidebar: config.firstInPersonalSidebar },
      identityManagementConfig: { enabled: true },
      lineageConfig: { supportsImpactAnalysis: true },
      managedIngestionConfig: { enabled: true },
      policiesConfig: {
        enabled: true,
        platformPrivileges: PLATFORM_PRIVILEGES.map((p) => ({ ...p })),
        resourcePrivileges: RESOURCE_PRIVILEGES.map((r) => ({ ...r, privileges: r.privileges.map((p) => ({ ...p })) })),
      },
      searchBarConfig: { apiVariant: config.searchBarApi },
      searchCardConfig: { showDescription: config.searchCardShowDescription },
      telemetryConfig: { enableThirdPartyLogging: config.thirdPartyLogging },
      testsConfig: { enabled: false },
      viewsConfig: { enabled: config.viewsEnabled },
      visualConfig: {
        logoUrl: v.logoUrl,
        faviconUrl: v.faviconUrl,
        appTitle: v.appTitle,
        hideGlossary: v.hideGlossary,
        showFullTitleInLineage: v.showFullTitleInLineage,
        queriesTab: { queriesTabResultSize: v.queriesTabResultSize },
        entityProfiles: { domain: { defaultTab: v.domainDefaultTab } },
        searchResult: { enableNameHighlight: v.enableNameHighlight },
        theme: { themeId: v.themeId },
        application: null as { showApplicationInNavigation: boolean; showSidebarSectionWhenEmpty: boolean } | null,
      },
    };
  }

  /** `me.platformPrivileges`: each flag as the policy answers for the actor. */
  async platformPrivileges(actor: Actor): Promise<Record<PlatformFlag, boolean>> {
    const flags = Object.keys(PLATFORM_FLAGS) as PlatformFlag[];
    const answers = await Promise.all(flags.map((flag) => this.deps.entities.service.allows(actor, flagPrivileges(flag))));
    return Object.fromEntries(flags.map((flag, i) => [flag, answers[i]!])) as Record<PlatformFlag, boolean>;
  }

  /** The stored `globalSettingsInfo`, if any. */
  async globalSettings(actor: Actor): Promise<Record<string, unknown> | undefined> {
    const stored = await this.reader(actor).latest([GLOBAL_SETTINGS_URN], ['globalSettingsInfo']);
    return stored.get(GLOBAL_SETTINGS_URN)?.get('globalSettingsInfo')?.value;
  }

  /** Whether the home page shows applications (`globalSettingsInfo.applications.enabled`, false when unset). */
  async applicationsEnabled(actor: Actor): Promise<boolean> {
    const applications = (await this.globalSettings(actor))?.applications;
    return isJsonObject(applications) && applications.enabled === true;
  }

  /** Views by urn, in the order asked; absent ones left out. */
  async views(actor: Actor, urns: readonly string[]): Promise<View[]> {
    const stored = await this.reader(actor).latest(urns, ['dataHubViewInfo']);
    return urns.flatMap((urn) => {
      const info = stored.get(urn)?.get('dataHubViewInfo')?.value;
      return info ? [toView(urn, info)] : [];
    });
  }

  /** A page of views, newest first: the caller's (of a type, when given) or the global ones. */
  async listViews(
    actor: Actor,
    request: { mine: boolean; viewType?: string | null; query?: string | null; start?: number | null; count?: number | null },
  ) {
    const filters: Criterion[] = [];
    if (request.mine) filters.push({ field: 'createdBy', values: [actor.urn] });
    const viewType = request.mine ? request.viewType : 'GLOBAL';
    if (viewType) filters.push({ field: 'type', values: [viewType] });
    const { start, count, total, urns } = await this.newestFirst(actor, 'dataHubView', 'dataHubViewInfo', request, [filters], (v) =>
      isJsonObject(v.created) && typeof v.created.time === 'number' ? v.created.time : 0,
    );
    return { start, count, total, views: await this.views(actor, urns) };
  }

  /** `batchGetStepStates`: the stored properties of each id that has a step state. */
  async stepStates(actor: Actor, ids: readonly string[]): Promise<{ id: string; properties: { key: string; value: string }[] }[]> {
    if (ids.length > MAX_STEP_IDS) throw badRequest(`Field 'ids' must list at most ${MAX_STEP_IDS} ids (got ${ids.length}).`);
    const urns = ids.map((id) => STEP_STATE_URN_PREFIX + id);
    const stored = await this.reader(actor).latest(urns, ['dataHubStepStateProperties']);
    return ids.flatMap((id, i) => {
      const value = stored.get(urns[i]!)?.get('dataHubStepStateProperties')?.value;
      if (!value) return [];
      const properties = isJsonObject(value.properties) ? value.properties : {};
      return [{ id, properties: Object.entries(properties).map(([key, v]) => ({ key, value: String(v) })) }];
    });
  }

  /** `listPosts`: a page of posts, last modified first; `resourceUrn` keeps the posts about that entity. */
  async listPosts(
    actor: Actor,
    request: {
      query?: string | null;
      start?: number | null;
      count?: number | null;
      resourceUrn?: string | null;
      orFilters?: readonly (readonly Criterion[])[];
    },
  ) {
    let groups: (readonly Criterion[])[] = request.orFilters?.length ? [...request.orFilters] : [[]];
    if (request.resourceUrn) groups = groups.map((and) => [...and, { field: 'target', values: [request.resourceUrn!] }]);
    const page = await this.newestFirst(actor, 'post', 'postInfo', request, groups, (v) =>
      typeof v.lastModified === 'number' ? v.lastModified : 0,
    );
    const stored = await this.reader(actor).latest(page.urns, ['postInfo']);
    const posts = page.urns.flatMap((urn) => {
      const info = stored.get(urn)?.get('postInfo')?.value;
      return info ? [toPost(urn, info)] : [];
    });
    return { start: page.start, count: page.count, total: page.total, posts };
  }

  /**
   * Matches of a search (at most MAX_SORTED), sorted by a time read from their aspect, newest first, then paged: mds's
   * index sorts by name or urn only, and DataHub lists views by creation and posts by last change.
   */
  private async newestFirst(
    actor: Actor,
    entityType: string,
    aspect: string,
    request: { query?: string | null; start?: number | null; count?: number | null },
    filters: readonly (readonly Criterion[])[],
    timeOf: (value: Record<string, unknown>) => number,
  ) {
    const start = request.start ?? 0;
    const count = request.count ?? DEFAULT_COUNT;
    if (start < 0) throw badRequest(`Field 'start' must be 0 or more (got ${start}).`);
    if (count < 0 || count > MAX_COUNT) throw badRequest(`Field 'count' must be from 0 to ${MAX_COUNT} (got ${count}).`);
    const found = await this.search({
      entityTypes: [entityType],
      input: request.query?.trim() || '*',
      filters: filters.filter((group) => group.length > 0),
      start: 0,
      count: MAX_SORTED,
      facets: [],
    });
    const urns = found.hits.map((h) => h.urn);
    const stored = await this.reader(actor).latest(urns, [aspect]);
    const time = new Map(urns.map((urn) => [urn, timeOf(stored.get(urn)?.get(aspect)?.value ?? {})]));
    const sorted = [...urns].sort((a, b) => time.get(b)! - time.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
    const page = sorted.slice(start, start + count);
    return { start, count: page.length, total: found.total, urns: page };
  }

  /** The entity types and filter of a view, to narrow a search to it (DataHub's viewFilter); a 400 when it is not stored. */
  async viewScope(actor: Actor, viewUrn: string | null | undefined): Promise<{ entityTypes?: string[]; filters?: Criterion[][] }> {
    if (!viewUrn) return {};
    const [view] = await this.views(actor, [viewUrn]);
    if (!view) throw badRequest(`View ${viewUrn} does not exist.`);
    const criteria = view.filters.map((f) => ({
      field: f.field,
      values: f.values,
      condition: f.condition ?? undefined,
      negated: f.negated ?? false,
    }));
    const filters = criteria.length === 0 ? undefined : view.operator === 'AND' ? [criteria] : criteria.map((c) => [c]);
    return { entityTypes: view.entityTypes.length ? view.entityTypes : undefined, filters };
  }

  /** `getQuickFilters`: the top platforms (by entity count, then by name) and the first source and catalog entity types stored. */
  async quickFilters(actor: Actor, viewUrn?: string | null): Promise<{ field: string; value: string }[]> {
    const scope = await this.viewScope(actor, viewUrn);
    const result = await this.search({
      input: '*',
      ...scope,
      start: 0,
      count: 0,
      facets: [PLATFORM, ENTITY_TYPE],
      maxFacetValues: 100,
    });
    const facet = (field: string) => result.facets.find((f) => f.field === field)?.values.filter((v) => v.count > 0) ?? [];
    const platforms = [...facet(PLATFORM)]
      .sort((a, b) => b.count - a.count)
      .slice(0, PLATFORM_COUNT)
      .map((v) => ({ field: PLATFORM, value: v.value }))
      .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
    // The index names types as GraphQL does (DATASET); the lists name them as the registry does (dataset).
    const types = new Set(facet(ENTITY_TYPE).map((v) => graphqlTypeOf(v.value)));
    const firstOf = (prioritized: readonly string[], max: number) =>
      prioritized
        .map(graphqlTypeOf)
        .filter((type) => types.has(type))
        .slice(0, max)
        .map((type) => ({ field: ENTITY_TYPE, value: type }));
    return [...platforms, ...firstOf(SOURCE_TYPES, SOURCE_COUNT), ...firstOf(CATALOG_TYPES, CATALOG_COUNT)];
  }

  /** How many entities of each type the index holds (within a view, when given), by GraphQL EntityType. */
  async entityCounts(actor: Actor, viewUrn?: string | null): Promise<Map<string, number>> {
    const scope = await this.viewScope(actor, viewUrn);
    const result = await this.search({
      input: '*',
      ...scope,
      start: 0,
      count: 0,
      facets: [ENTITY_TYPE],
      maxFacetValues: 1000,
    });
    const counts = new Map<string, number>();
    for (const { value, count } of result.facets.find((f) => f.field === ENTITY_TYPE)?.values ?? []) {
      const type = graphqlTypeOf(value);
      counts.set(type, (counts.get(type) ?? 0) + count);
    }
    return counts;
  }
}

/**
 * `dataHubViewInfo` as DataHub's DataHubViewMapper reads it: one and-group is AND over its criteria; otherwise OR over
 * groups of one criterion each (a group of several makes the list empty, as DataHub refuses such a filter).
 */
function toView(urn: string, info: Record<string, unknown>): View {
  const definition = isJsonObject(info.definition) ? info.definition : {};
  const filter = isJsonObject(definition.filter) ? definition.filter : {};
  const groups = (Array.isArray(filter.or) ? filter.or : [])
    .filter(isJsonObject)
    .map((g) => (Array.isArray(g.and) ? g.and.filter(isJsonObject) : []));
  const operator = groups.length === 1 ? 'AND' : 'OR';
  const criteria = operator === 'AND' ? groups[0]! : groups.some((g) => g.length > 1) ? [] : groups.flatMap((g) => g.slice(0, 1));
  const filters = criteria.map((c) => ({
    field: (text(c.field) ?? '').replace(/\.keyword$/, ''),
    values: stringsOf(c.values),
    condition: text(c.condition),
    negated: typeof c.negated === 'boolean' ? c.negated : null,
  }));
  return {
    urn,
    name: text(info.name) ?? '',
    description: text(info.description),
    viewType: info.type === 'GLOBAL' ? 'GLOBAL' : 'PERSONAL',
    entityTypes: stringsOf(definition.entityTypes),
    operator,
    filters,
    created: isJsonObject(info.created) && typeof info.created.time === 'number' ? info.created.time : 0,
  };
}

/** `postInfo` as DataHub's PostMapper reads it. */
function toPost(urn: string, info: Record<string, unknown>): Post {
  const content = isJsonObject(info.content) ? info.content : {};
  const media = isJsonObject(content.media) ? content.media : undefined;
  const audit = isJsonObject(info.auditStamp) ? info.auditStamp : undefined;
  return {
    urn,
    postType: text(info.type) ?? 'HOME_PAGE_ANNOUNCEMENT',
    content: {
      contentType: text(content.type) ?? 'TEXT',
      title: text(content.title) ?? '',
      description: text(content.description),
      link: text(content.link),
      media: media ? { type: text(media.type) ?? 'IMAGE', location: text(media.location) ?? '' } : null,
    },
    lastModified: { time: typeof info.lastModified === 'number' ? info.lastModified : 0, actor: text(audit?.actor) },
  };
}
