/**
 * What `appConfig` reports, read from the environment variables DataHub reads for the same settings
 * (metadata-service/configuration application.yaml at the pinned commit), with DataHub's defaults. A value that is not
 * one the variable accepts stops the start with a ShellConfigError naming the variable and what it accepts.
 */

/** The UI's feature flags (`FeatureFlagsConfig`), each with the variable that sets it and DataHub's default. */
export const FEATURE_FLAGS = {
  assetSummaryPageV1: ['ASSET_SUMMARY_PAGE_V1', false],
  businessAttributeEntityEnabled: ['BUSINESS_ATTRIBUTE_ENTITY_ENABLED', false],
  dataContractsEnabled: ['DATA_CONTRACTS_ENABLED', true],
  editableDatasetNameEnabled: ['EDITABLE_DATASET_NAME_ENABLED', false],
  entityVersioningEnabled: ['ENTITY_VERSIONING_ENABLED', false],
  erModelRelationshipFeatureEnabled: ['ER_MODEL_RELATIONSHIP_FEATURE_ENABLED', false],
  hideDbtSourceInLineage: ['HIDE_DBT_SOURCE_IN_LINEAGE', false],
  lineageGraphV2: ['LINEAGE_GRAPH_V2', true],
  lineageGraphV3: ['LINEAGE_GRAPH_V3', false],
  logicalModelsEnabled: ['LOGICAL_MODELS_ENABLED', false],
  nestedDomainsEnabled: ['NESTED_DOMAINS_ENABLED', true],
  platformBrowseV2: ['PLATFORM_BROWSE_V2', true],
  readOnlyModeEnabled: ['READ_ONLY_MODE_ENABLED', false],
  schemaFieldCLLEnabled: ['SCHEMA_FIELD_CLL_ENABLED', false],
  schemaFieldLineageIgnoreStatus: ['SCHEMA_FIELD_LINEAGE_IGNORE_STATUS', true],
  showAccessManagement: ['SHOW_ACCESS_MANAGEMENT', false],
  showAcrylInfo: ['SHOW_ACRYL_INFO', false],
  showAutoCompleteResults: ['SHOW_AUTO_COMPLETE_RESULTS', true],
  showBrowseV2: ['SHOW_BROWSE_V2', true],
  showHasSiblingsFilter: ['SHOW_HAS_SIBLINGS_FILTER', false],
  showHomePageRedesign: ['SHOW_HOME_PAGE_REDESIGN', false],
  showHomepageUserRole: ['SHOW_HOMEPAGE_USER_ROLE', false],
  showIngestionPageRedesign: ['SHOW_INGESTION_PAGE_REDESIGN', false],
  showIntroducePage: ['SHOW_INTRODUCE_PAGE', true],
  showLineageExpandMore: ['SHOW_LINEAGE_EXPAND_MORE', true],
  showManageStructuredProperties: ['SHOW_MANAGE_STRUCTURED_PROPERTIES', true],
  showManageTags: ['SHOW_MANAGE_TAGS', true],
  showNavBarRedesign: ['SHOW_NAV_BAR_REDESIGN', true],
  showProductUpdates: ['SHOW_PRODUCT_UPDATES', true],
  showSearchBarAutocompleteRedesign: ['SHOW_SEARCH_BAR_AUTOCOMPLETE_REDESIGN', false],
  showSearchFiltersV2: ['SHOW_SEARCH_FILTERS_V2', true],
  showSeparateSiblings: ['SHOW_SEPARATE_SIBLINGS', false],
  showStatsTabRedesign: ['SHOW_STATS_TAB_REDESIGN', true],
  themeV2Default: ['THEME_V2_DEFAULT', true],
  themeV2Enabled: ['THEME_V2_ENABLED', true],
  themeV2Toggleable: ['THEME_V2_TOGGLEABLE', true],
} as const satisfies Record<string, readonly [string, boolean]>;

export type FeatureFlags = { [K in keyof typeof FEATURE_FLAGS]: boolean };

export const SEARCH_BAR_APIS = ['AUTOCOMPLETE_FOR_MULTIPLE', 'SEARCH_ACROSS_ENTITIES'] as const;
export const PERSONAL_SIDEBAR_SECTIONS = ['YOUR_ASSETS', 'YOUR_DOMAINS', 'YOUR_GLOSSARY_NODES', 'YOUR_GROUPS', 'YOUR_TAGS'] as const;

export interface ShellConfig {
  featureFlags: FeatureFlags;
  /** VIEWS_ENABLED (true). */
  viewsEnabled: boolean;
  /** SEARCH_BAR_API_VARIANT (AUTOCOMPLETE_FOR_MULTIPLE). */
  searchBarApi: (typeof SEARCH_BAR_APIS)[number];
  /** SEARCH_CARD_SHOW_DESCRIPTION (false). */
  searchCardShowDescription: boolean;
  /** FIRST_IN_PERSONAL_SIDEBAR (YOUR_ASSETS). */
  firstInPersonalSidebar: (typeof PERSONAL_SIDEBAR_SECTIONS)[number];
  /** CHROME_EXTENSION_ENABLED, CHROME_EXTENSION_LINEAGE_ENABLED (true, true). */
  chromeExtension: { enabled: boolean; lineageEnabled: boolean };
  /** ENABLE_THIRD_PARTY_LOGGING (false). */
  thirdPartyLogging: boolean;
  /** METADATA_SERVICE_AUTH_ENABLED (true): whether requests need a token. mds always asks for one: only true is accepted. */
  tokenAuthEnabled: boolean;
  visual: {
    /** REACT_APP_LOGO_URL, REACT_APP_FAVICON_URL, REACT_APP_TITLE (DataHub's asset paths; no title: ''). */
    logoUrl: string;
    faviconUrl: string;
    appTitle: string;
    /** REACT_APP_HIDE_GLOSSARY, REACT_APP_SHOW_FULL_TITLE_IN_LINEAGE (false, false). */
    hideGlossary: boolean;
    showFullTitleInLineage: boolean;
    /** REACT_APP_QUERIES_TAB_RESULT_SIZE (5). */
    queriesTabResultSize: number;
    /** DOMAIN_DEFAULT_TAB (none: '', as DataHub answers an unset one). */
    domainDefaultTab: string;
    /** REACT_APP_CUSTOM_THEME_ID (none: ''). */
    themeId: string;
    /** SEARCH_RESULT_NAME_HIGHLIGHT_ENABLED (true). */
    enableNameHighlight: boolean;
  };
}

export class ShellConfigError extends Error {
  override name = 'ShellConfigError';
}

/** The shell's settings from `env` (empty variables count as unset); throws ShellConfigError on a bad value. */
export function parseShellConfig(env: NodeJS.ProcessEnv): ShellConfig {
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const flag = (name: string, fallback: boolean): boolean => {
    const value = text(name);
    if (value === undefined) return fallback;
    if (/^true$/i.test(value)) return true;
    if (/^false$/i.test(value)) return false;
    throw new ShellConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: expected true or false`);
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = text(name);
    if (value === undefined) return fallback;
    if ((allowed as readonly string[]).includes(value)) return value as T;
    throw new ShellConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: expected one of ${allowed.join(', ')}`);
  };
  const positive = (name: string, fallback: number): number => {
    const value = text(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
      throw new ShellConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: expected a whole number from 1 to 1000`);
    }
    return Number(value);
  };

  if (!flag('METADATA_SERVICE_AUTH_ENABLED', true)) {
    throw new ShellConfigError(
      'Invalid METADATA_SERVICE_AUTH_ENABLED="false": mds always authenticates requests (every GraphQL, Rest.li and OpenAPI call needs a token), so it cannot be turned off',
    );
  }
  const featureFlags = Object.fromEntries(
    Object.entries(FEATURE_FLAGS).map(([field, [name, fallback]]) => [field, flag(name, fallback)]),
  ) as FeatureFlags;
  return {
    featureFlags,
    viewsEnabled: flag('VIEWS_ENABLED', true),
    searchBarApi: oneOf('SEARCH_BAR_API_VARIANT', SEARCH_BAR_APIS, 'AUTOCOMPLETE_FOR_MULTIPLE'),
    searchCardShowDescription: flag('SEARCH_CARD_SHOW_DESCRIPTION', false),
    firstInPersonalSidebar: oneOf('FIRST_IN_PERSONAL_SIDEBAR', PERSONAL_SIDEBAR_SECTIONS, 'YOUR_ASSETS'),
    chromeExtension: { enabled: flag('CHROME_EXTENSION_ENABLED', true), lineageEnabled: flag('CHROME_EXTENSION_LINEAGE_ENABLED', true) },
    thirdPartyLogging: flag('ENABLE_THIRD_PARTY_LOGGING', false),
    tokenAuthEnabled: true,
    visual: {
      logoUrl: text('REACT_APP_LOGO_URL') ?? '/assets/platforms/datahublogo.png',
      faviconUrl: text('REACT_APP_FAVICON_URL') ?? '/assets/icons/favicon.ico',
      appTitle: text('REACT_APP_TITLE') ?? '',
      hideGlossary: flag('REACT_APP_HIDE_GLOSSARY', false),
      showFullTitleInLineage: flag('REACT_APP_SHOW_FULL_TITLE_IN_LINEAGE', false),
      queriesTabResultSize: positive('REACT_APP_QUERIES_TAB_RESULT_SIZE', 5),
      domainDefaultTab: text('DOMAIN_DEFAULT_TAB') ?? '',
      themeId: text('REACT_APP_CUSTOM_THEME_ID') ?? '',
      enableNameHighlight: flag('SEARCH_RESULT_NAME_HIGHLIGHT_ENABLED', true),
    },
  };
}
