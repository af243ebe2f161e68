import { describe, expect, it } from 'vitest';
import { parseShellConfig } from '../src/index';
import { as, ingested, setup } from './fixtures';

const admin = as('datahub', 'Admin');
const alice = as('alice', 'Editor');
const bob = as('bob', 'Reader');

describe('appConfig', () => {
  const APP_CONFIG = `{ appConfig {
    appVersion
    analyticsConfig { enabled } authConfig { tokenAuthEnabled } identityManagementConfig { enabled }
    lineageConfig { supportsImpactAnalysis } managedIngestionConfig { enabled } testsConfig { enabled } viewsConfig { enabled }
    telemetryConfig { enableThirdPartyLogging } searchBarConfig { apiVariant } searchCardConfig { showDescription }
    homePageConfig { firstInPersonalSidebar } chromeExtensionConfig { enabled lineageEnabled }
    visualConfig {
      appTitle logoUrl faviconUrl hideGlossary showFullTitleInLineage queriesTab { queriesTabResultSize }
      entityProfiles { domain { defaultTab } } searchResult { enableNameHighlight } theme { themeId }
      application { showSidebarSectionWhenEmpty showApplicationInNavigation }
    }
    featureFlags { showBrowseV2 lineageGraphV2 lineageGraphV3 themeV2Default nestedDomainsEnabled readOnlyModeEnabled showHomePageRedesign }
    policiesConfig { enabled platformPrivileges { type displayName } resourcePrivileges { resourceType entityType privileges { type } } }
  } }`;

  it("answers DataHub's defaults when no variable is set, and what mds has of DataHub's optional services", async () => {
    const { run } = await setup();
    const { data, errors } = await run(bob, APP_CONFIG);
    expect(errors).toBeUndefined();
    const { policiesConfig, ...rest } = data!.appConfig;
    expect(rest).toEqual({
      appVersion: '9.9.9-test',
      analyticsConfig: { enabled: false },
      authConfig: { tokenAuthEnabled: true },
      identityManagementConfig: { enabled: true },
      lineageConfig: { supportsImpactAnalysis: true },
      managedIngestionConfig: { enabled: true },
      testsConfig: { enabled: false },
      viewsConfig: { enabled: true },
      telemetryConfig: { enableThirdPartyLogging: false },
      searchBarConfig: { apiVariant: 'AUTOCOMPLETE_FOR_MULTIPLE' },
      searchCardConfig: { showDescription: false },
      homePageConfig: { firstInPersonalSidebar: 'YOUR_ASSETS' },
      chromeExtensionConfig: { enabled: true, lineageEnabled: true },
      visualConfig: {
        appTitle: '',
        logoUrl: '/assets/platforms/datahublogo.png',
        faviconUrl: '/assets/icons/favicon.ico',
        hideGlossary: false,
        showFullTitleInLineage: false,
        queriesTab: { queriesTabResultSize: 5 },
        entityProfiles: { domain: { defaultTab: '' } },
        searchResult: { enableNameHighlight: true },
        theme: { themeId: '' },
        application: { showSidebarSectionWhenEmpty: false, showApplicationInNavigation: false },
      },
      featureFlags: {
        showBrowseV2: true,
        lineageGraphV2: true,
        lineageGraphV3: false,
        themeV2Default: true,
        nestedDomainsEnabled: true,
        readOnlyModeEnabled: false,
        showHomePageRedesign: false,
      },
    });
    expect(policiesConfig.enabled).toBe(true);
    expect(policiesConfig.platformPrivileges).toContainEqual({ type: 'MANAGE_TAGS', displayName: 'Manage Tags' });
    // Every platform privilege a policy may grant, those of the pages built since (ingestion, secrets, glossary) too.
    expect((policiesConfig.platformPrivileges as { type: string }[]).map((p) => p.type)).toEqual(
      expect.arrayContaining(['MANAGE_INGESTION', 'MANAGE_SECRETS', 'MANAGE_CONNECTIONS', 'MANAGE_GLOSSARIES', 'MANAGE_POLICIES']),
    );
    expect(policiesConfig.resourcePrivileges[0]).toMatchObject({ resourceType: 'dataset', entityType: 'DATASET' });
    expect(policiesConfig.resourcePrivileges[0].privileges).toContainEqual({ type: 'EDIT_DATASET_COL_TAGS' });
  });

  it("reads DataHub's environment variables", async () => {
    const { run } = await setup({
      SHOW_BROWSE_V2: 'false',
      LINEAGE_GRAPH_V3: 'TRUE',
      READ_ONLY_MODE_ENABLED: 'true',
      VIEWS_ENABLED: 'false',
      SEARCH_BAR_API_VARIANT: 'SEARCH_ACROSS_ENTITIES',
      FIRST_IN_PERSONAL_SIDEBAR: 'YOUR_TAGS',
      REACT_APP_QUERIES_TAB_RESULT_SIZE: '12',
      REACT_APP_TITLE: 'Our catalog',
      DOMAIN_DEFAULT_TAB: 'DOCUMENTATION_TAB',
      CHROME_EXTENSION_LINEAGE_ENABLED: 'false',
    });
    const { data } = await run(bob, APP_CONFIG);
    expect(data!.appConfig).toMatchObject({
      viewsConfig: { enabled: false },
      searchBarConfig: { apiVariant: 'SEARCH_ACROSS_ENTITIES' },
      homePageConfig: { firstInPersonalSidebar: 'YOUR_TAGS' },
      chromeExtensionConfig: { enabled: true, lineageEnabled: false },
      visualConfig: {
        appTitle: 'Our catalog',
        queriesTab: { queriesTabResultSize: 12 },
        entityProfiles: { domain: { defaultTab: 'DOCUMENTATION_TAB' } },
      },
      featureFlags: { showBrowseV2: false, lineageGraphV3: true, readOnlyModeEnabled: true },
    });
  });

  it('refuses a bad value at start, naming the variable', () => {
    expect(() => parseShellConfig({ SHOW_BROWSE_V2: 'yes' })).toThrow('Invalid SHOW_BROWSE_V2="yes": expected true or false');
    expect(() => parseShellConfig({ SEARCH_BAR_API_VARIANT: 'FULLTEXT' })).toThrow(
      'Invalid SEARCH_BAR_API_VARIANT="FULLTEXT": expected one of AUTOCOMPLETE_FOR_MULTIPLE, SEARCH_ACROSS_ENTITIES',
    );
    expect(() => parseShellConfig({ REACT_APP_QUERIES_TAB_RESULT_SIZE: '0' })).toThrow('Invalid REACT_APP_QUERIES_TAB_RESULT_SIZE="0"');
    expect(() => parseShellConfig({ METADATA_SERVICE_AUTH_ENABLED: 'false' })).toThrow(/mds always authenticates/);
    expect(() => parseShellConfig({ FIRST_IN_PERSONAL_SIDEBAR: '' })).not.toThrow();
  });

  it('shows applications in navigation once the global settings enable them', async () => {
    const { run, entities } = await setup();
    await ingested(entities, [
      { urn: 'urn:li:globalSettings:0', aspect: 'globalSettingsInfo', value: { applications: { enabled: true } } },
    ]);
    const { data } = await run(
      bob,
      '{ appConfig { visualConfig { application { showSidebarSectionWhenEmpty showApplicationInNavigation } } } }',
    );
    expect(data!.appConfig.visualConfig.application).toEqual({ showSidebarSectionWhenEmpty: true, showApplicationInNavigation: true });
  });
});

describe('me', () => {
  const ME = `{ me { corpUser { urn username } platformPrivileges {
    createTags manageTags viewManageTags generatePersonalAccessTokens manageTokens managePolicies createDomains manageDomains
    viewAnalytics manageIngestion manageGlossaries manageFeatures } } }`;
  const none = {
    createTags: false,
    manageTags: false,
    viewManageTags: false,
    generatePersonalAccessTokens: false,
    manageTokens: false,
    managePolicies: false,
    createDomains: false,
    manageDomains: false,
    viewAnalytics: false,
    manageIngestion: false,
    manageGlossaries: false,
    manageFeatures: false,
  };

  it.each([
    [
      'an Admin',
      admin,
      'datahub',
      // An Admin holds every privilege DataHub defines, so every flag.
      Object.fromEntries(Object.keys(none).map((flag) => [flag, true])),
    ],
    [
      'an Editor',
      alice,
      'alice',
      {
        ...none,
        createTags: true,
        manageTags: true,
        viewManageTags: true,
        generatePersonalAccessTokens: true,
        createDomains: true,
        manageDomains: true,
        // DataHub's default policies: the Editors' platform policy, and policy 7 for all users (viewAnalytics).
        manageGlossaries: true,
        manageFeatures: true,
        viewAnalytics: true,
      },
    ],
    ['a Reader', bob, 'bob', { ...none, generatePersonalAccessTokens: true, viewAnalytics: true }],
    // DataHub's default policy 7 for all users, stored at every start: analytics and personal access tokens.
    ['a user without a role', as('carol', 'none'), 'carol', { ...none, generatePersonalAccessTokens: true, viewAnalytics: true }],
  ])('gives %s the flags its privileges grant', async (_who, context, username, platformPrivileges) => {
    const { run } = await setup();
    expect(await run(context, ME)).toEqual({ data: { me: { corpUser: { urn: context.actor.urn, username }, platformPrivileges } } });
  });

  it("answers the user's stored profile through the user type", async () => {
    const { run, entities } = await setup();
    await ingested(entities, [
      { urn: 'urn:li:corpuser:alice', aspect: 'corpUserInfo', value: { active: true, displayName: 'Alice A.', email: 'a@x.org' } },
    ]);
    const { data } = await run(alice, '{ me { corpUser { urn type properties { displayName email active } } } }');
    expect(data!.me.corpUser).toEqual({
      urn: 'urn:li:corpuser:alice',
      type: 'CORP_USER',
      properties: { displayName: 'Alice A.', email: 'a@x.org', active: true },
    });
  });
});

describe('global settings', () => {
  const SETTINGS = '{ globalViewsSettings { defaultView } docPropagationSettings { docColumnPropagation } }';

  it("answers DataHub's defaults while none are stored", async () => {
    const { run } = await setup();
    expect(await run(bob, SETTINGS)).toEqual({
      data: { globalViewsSettings: { defaultView: null }, docPropagationSettings: { docColumnPropagation: false } },
    });
  });

  it('answers the stored globalSettingsInfo', async () => {
    const { run, entities } = await setup();
    await ingested(entities, [
      {
        urn: 'urn:li:globalSettings:0',
        aspect: 'globalSettingsInfo',
        value: { views: { defaultView: 'urn:li:dataHubView:v1' }, docPropagation: { enabled: true, columnPropagationEnabled: true } },
      },
    ]);
    expect(await run(bob, SETTINGS)).toEqual({
      data: { globalViewsSettings: { defaultView: 'urn:li:dataHubView:v1' }, docPropagationSettings: { docColumnPropagation: true } },
    });
  });
});

const viewInfo = (name: string, type: 'PERSONAL' | 'GLOBAL', actor: string, time: number, or: unknown[]) => ({
  name,
  type,
  description: `${name} view`,
  definition: { entityTypes: ['dataset', 'dashboard'], filter: { or } },
  created: { time, actor },
  lastModified: { time, actor },
});
const hive = { field: 'platform.keyword', value: '', values: ['urn:li:dataPlatform:hive'], condition: 'EQUAL', negated: false };
const prod = { field: 'origin', value: '', values: ['PROD'], condition: 'EQUAL', negated: true };

describe('views', () => {
  const VIEW = `view { urn type viewType name description definition { entityTypes filter { operator filters { field condition values negated } } } }`;

  async function withViews() {
    const fixture = await setup();
    await ingested(fixture.entities, [
      {
        urn: 'urn:li:dataHubView:a1',
        aspect: 'dataHubViewInfo',
        value: viewInfo('Hive prod', 'PERSONAL', alice.actor.urn, 1_000, [{ and: [hive, prod] }]),
      },
      {
        urn: 'urn:li:dataHubView:a2',
        aspect: 'dataHubViewInfo',
        value: viewInfo('Shared', 'GLOBAL', alice.actor.urn, 2_000, [{ and: [hive] }, { and: [prod] }]),
      },
      {
        urn: 'urn:li:dataHubView:b1',
        aspect: 'dataHubViewInfo',
        value: viewInfo('Bobs', 'PERSONAL', bob.actor.urn, 3_000, [{ and: [prod] }]),
      },
    ]);
    return fixture;
  }

  it("maps dataHubViewInfo as DataHub's DataHubViewMapper does", async () => {
    const { run } = await withViews();
    const answer = await run(alice, `query ($urn: String!) { ${VIEW.replace('view {', 'view(urn: $urn) {')} }`, {
      urn: 'urn:li:dataHubView:a1',
    });
    expect(answer).toEqual({
      data: {
        view: {
          urn: 'urn:li:dataHubView:a1',
          type: 'DATAHUB_VIEW',
          viewType: 'PERSONAL',
          name: 'Hive prod',
          description: 'Hive prod view',
          definition: {
            entityTypes: ['DATASET', 'DASHBOARD'],
            filter: {
              operator: 'AND',
              filters: [
                { field: 'platform', condition: 'EQUAL', values: ['urn:li:dataPlatform:hive'], negated: false },
                { field: 'origin', condition: 'EQUAL', values: ['PROD'], negated: true },
              ],
            },
          },
        },
      },
    });
    const shared = await run(alice, '{ view(urn: "urn:li:dataHubView:a2") { definition { filter { operator filters { field } } } } }');
    expect(shared.data!.view.definition.filter).toEqual({ operator: 'OR', filters: [{ field: 'platform' }, { field: 'origin' }] });
    expect(await run(alice, '{ view(urn: "urn:li:dataHubView:absent") { urn } }')).toEqual({ data: { view: null } });
  });

  it("lists the caller's views newest first, of a type when asked, and the global ones", async () => {
    const { run } = await withViews();
    const MINE = `query ($viewType: DataHubViewType) { listMyViews(input: { viewType: $viewType, start: 0, count: 10 }) { start count total views { urn } } }`;
    expect((await run(alice, MINE)).data!.listMyViews).toEqual({
      start: 0,
      count: 2,
      total: 2,
      views: [{ urn: 'urn:li:dataHubView:a2' }, { urn: 'urn:li:dataHubView:a1' }],
    });
    expect((await run(alice, MINE, { viewType: 'PERSONAL' })).data!.listMyViews.views).toEqual([{ urn: 'urn:li:dataHubView:a1' }]);
    expect((await run(bob, MINE)).data!.listMyViews.views).toEqual([{ urn: 'urn:li:dataHubView:b1' }]);
    const GLOBAL = '{ listGlobalViews(input: { start: 0, count: 10 }) { total views { urn name } } }';
    expect((await run(bob, GLOBAL)).data!.listGlobalViews).toEqual({ total: 1, views: [{ urn: 'urn:li:dataHubView:a2', name: 'Shared' }] });
    const refused = await run(bob, '{ listGlobalViews(input: { count: 5000 }) { total } }');
    expect(refused.errors?.[0]?.message).toBe("Field 'count' must be from 0 to 1000 (got 5000).");
  });
});

describe('batchGetStepStates', () => {
  it('answers the stored properties of the ids that have a step state', async () => {
    const { run, entities } = await setup();
    const id = 'urn:li:corpuser:alice-search-results-intro';
    await ingested(entities, [
      {
        urn: `urn:li:dataHubStepState:${id}`,
        aspect: 'dataHubStepStateProperties',
        value: { properties: { state: 'COMPLETE' }, lastModified: { time: 1, actor: alice.actor.urn } },
      },
    ]);
    const answer = await run(
      alice,
      'query ($ids: [String!]!) { batchGetStepStates(input: { ids: $ids }) { results { id properties { key value } } } }',
      {
        ids: [id, 'urn:li:corpuser:alice-never-seen'],
      },
    );
    expect(answer).toEqual({ data: { batchGetStepStates: { results: [{ id, properties: [{ key: 'state', value: 'COMPLETE' }] }] } } });
  });
});

describe('listPosts', () => {
  const post = (title: string, lastModified: number, extra: Record<string, unknown> = {}) => ({
    type: 'HOME_PAGE_ANNOUNCEMENT',
    content: { title, type: 'TEXT', description: `${title}!` },
    created: lastModified,
    lastModified,
    auditStamp: { time: lastModified, actor: 'urn:li:corpuser:datahub' },
    ...extra,
  });

  it("answers posts last modified first, mapped as DataHub's PostMapper does", async () => {
    const { run, entities } = await setup();
    await ingested(entities, [
      { urn: 'urn:li:post:older', aspect: 'postInfo', value: post('Older', 1_000) },
      {
        urn: 'urn:li:post:newer',
        aspect: 'postInfo',
        value: post('Newer', 2_000, {
          content: { title: 'Newer', type: 'LINK', link: 'https://x.org', media: { type: 'IMAGE', location: 'https://x.org/a.png' } },
        }),
      },
    ]);
    const LIST = `query ($input: ListPostsInput!) { listPosts(input: $input) { start count total posts {
      urn type postType lastModified { time actor } content { contentType title description link media { type location } } } } }`;
    expect(await run(bob, LIST, { input: { start: 0, count: 10 } })).toEqual({
      data: {
        listPosts: {
          start: 0,
          count: 2,
          total: 2,
          posts: [
            {
              urn: 'urn:li:post:newer',
              type: 'POST',
              postType: 'HOME_PAGE_ANNOUNCEMENT',
              lastModified: { time: 2_000, actor: 'urn:li:corpuser:datahub' },
              content: {
                contentType: 'LINK',
                title: 'Newer',
                description: null,
                link: 'https://x.org',
                media: { type: 'IMAGE', location: 'https://x.org/a.png' },
              },
            },
            {
              urn: 'urn:li:post:older',
              type: 'POST',
              postType: 'HOME_PAGE_ANNOUNCEMENT',
              lastModified: { time: 1_000, actor: 'urn:li:corpuser:datahub' },
              content: { contentType: 'TEXT', title: 'Older', description: 'Older!', link: null, media: null },
            },
          ],
        },
      },
    });
    const page = await run(bob, LIST, { input: { start: 1, count: 1 } });
    expect(page.data!.listPosts).toMatchObject({ start: 1, count: 1, total: 2, posts: [{ urn: 'urn:li:post:older' }] });
  });

  it('refuses a filter on a field the index does not know with a 400 naming it (found by the fuzzer: was a 500)', async () => {
    const { run } = await setup();
    const refused = await run(bob, 'query ($input: ListPostsInput!) { listPosts(input: $input) { count } }', {
      input: { orFilters: [{ and: [{ field: 'nope', values: ['x'] }] }] },
    });
    expect(refused.errors?.[0]).toMatchObject({ message: expect.stringContaining('Unknown filter field nope'), extensions: { code: 400 } });
  });
});

const dataset = (name: string, platform: string) => ({
  urn: `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`,
  aspect: 'datasetProperties',
  value: { name, customProperties: {} },
});

describe('getQuickFilters and getEntityCounts', () => {
  async function withDatasets() {
    const fixture = await setup();
    const platforms = ['hive', 'hive', 'hive', 'kafka', 'kafka', 's3', 'mysql', 'postgres', 'snowflake', 'snowflake'];
    await ingested(fixture.entities, [
      ...platforms.map((p, i) => dataset(`t${i}`, p)),
      {
        urn: 'urn:li:chart:(looker,c1)',
        aspect: 'chartInfo',
        value: {
          title: 'c1',
          description: '',
          lastModified: { created: { time: 0, actor: 'urn:li:corpuser:x' }, lastModified: { time: 0, actor: 'urn:li:corpuser:x' } },
        },
      },
      { urn: 'urn:li:corpuser:alice', aspect: 'corpUserInfo', value: { active: true } },
      {
        urn: 'urn:li:dataHubView:hive',
        aspect: 'dataHubViewInfo',
        value: viewInfo('Hive', 'GLOBAL', 'urn:li:corpuser:datahub', 1, [{ and: [{ ...hive, negated: false }] }]),
      },
    ]);
    return fixture;
  }

  it("answers the five platforms with most entities by name, then the stored source and catalog types in DataHub's order", async () => {
    const { run } = await withDatasets();
    const QUICK = `query ($input: GetQuickFiltersInput!) { getQuickFilters(input: $input) { quickFilters { field value entity { urn type ... on DataPlatform { name } } } } }`;
    const { data, errors } = await run(bob, QUICK, { input: {} });
    expect(errors).toBeUndefined();
    const filters = data!.getQuickFilters.quickFilters;
    // The five platforms with most entities (hive 3, kafka 2, snowflake 2, then two of those with one: the index
    // breaks the tie), sorted by urn as DataHub sorts them; then the types in DataHub's order of priority.
    const platforms = filters.slice(0, 5).map((f: { field: string; value: string }) => `${f.field}=${f.value}`);
    expect(platforms).toEqual([...platforms].sort());
    expect(platforms).toEqual(
      expect.arrayContaining([
        'platform=urn:li:dataPlatform:hive',
        'platform=urn:li:dataPlatform:kafka',
        'platform=urn:li:dataPlatform:snowflake',
      ]),
    );
    expect(filters.slice(5).map((f: { field: string; value: string }) => `${f.field}=${f.value}`)).toEqual([
      '_entityType=DATASET',
      '_entityType=CHART',
      '_entityType=CORP_USER',
    ]);
    expect(filters.find((f: { value: string }) => f.value === 'urn:li:dataPlatform:hive').entity).toEqual({
      urn: 'urn:li:dataPlatform:hive',
      type: 'DATA_PLATFORM',
      name: 'hive',
    });
    expect(filters[5].entity).toBeNull();

    const inView = await run(bob, QUICK, { input: { viewUrn: 'urn:li:dataHubView:hive' } });
    expect(inView.data!.getQuickFilters.quickFilters.map((f: { value: string }) => f.value)).toEqual([
      'urn:li:dataPlatform:hive',
      'DATASET',
    ]);
  });

  it('counts the stored entities of each type asked, within a view when one is given', async () => {
    const { run } = await withDatasets();
    const COUNTS = 'query ($input: EntityCountInput) { getEntityCounts(input: $input) { counts { entityType count } } }';
    expect(await run(bob, COUNTS, { input: { types: ['DATASET', 'CHART', 'DASHBOARD'] } })).toEqual({
      data: {
        getEntityCounts: {
          counts: [
            { entityType: 'DATASET', count: 10 },
            { entityType: 'CHART', count: 1 },
            { entityType: 'DASHBOARD', count: 0 },
          ],
        },
      },
    });
    const inView = await run(bob, COUNTS, { input: { types: ['DATASET', 'CHART'], viewUrn: 'urn:li:dataHubView:hive' } });
    expect(inView.data!.getEntityCounts.counts).toEqual([
      { entityType: 'DATASET', count: 3 },
      { entityType: 'CHART', count: 0 },
    ]);
    const unknown = await run(bob, COUNTS, { input: { types: ['DATASET'], viewUrn: 'urn:li:dataHubView:nope' } });
    expect(unknown.errors?.[0]?.message).toBe('View urn:li:dataHubView:nope does not exist.');
  });
});
