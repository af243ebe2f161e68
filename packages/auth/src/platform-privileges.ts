import type { Actor, PlatformPrivileges } from '@mds/schema';

/**
 * Each `PlatformPrivileges` field and the DataHub privileges that grant it (any of them), as DataHub's MeResolver and
 * AuthorizationUtils compute them. Fields for features mds does not have name privileges no role here grants, so
 * they stay false rather than advertise pages that do not exist.
 */
const GRANTED_BY: Readonly<Record<keyof Omit<PlatformPrivileges, '__typename'>, readonly string[]>> = {
  viewAnalytics: ['VIEW_ANALYTICS'],
  managePolicies: ['MANAGE_POLICIES'],
  manageIdentities: ['MANAGE_USERS_AND_GROUPS'],
  generatePersonalAccessTokens: ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS'],
  createDomains: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'],
  manageDomains: ['MANAGE_DOMAINS'],
  manageIngestion: ['MANAGE_INGESTION'],
  manageSecrets: ['MANAGE_SECRETS'],
  manageTokens: ['MANAGE_ACCESS_TOKENS'],
  viewTests: ['VIEW_TESTS', 'MANAGE_TESTS'],
  manageTests: ['MANAGE_TESTS'],
  manageGlossaries: ['MANAGE_GLOSSARIES'],
  manageUserCredentials: ['MANAGE_USER_CREDENTIALS'],
  createTags: ['CREATE_TAGS', 'MANAGE_TAGS'],
  manageTags: ['MANAGE_TAGS'],
  viewManageTags: ['VIEW_MANAGE_TAGS', 'MANAGE_TAGS'],
  manageGlobalViews: ['MANAGE_GLOBAL_VIEWS'],
  manageOwnershipTypes: ['MANAGE_GLOBAL_OWNERSHIP_TYPES'],
  manageGlobalAnnouncements: ['MANAGE_GLOBAL_ANNOUNCEMENTS'],
  createBusinessAttributes: ['CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'],
  manageBusinessAttributes: ['MANAGE_BUSINESS_ATTRIBUTE'],
  manageStructuredProperties: ['MANAGE_STRUCTURED_PROPERTIES'],
  viewStructuredPropertiesPage: ['VIEW_STRUCTURED_PROPERTIES_PAGE', 'MANAGE_STRUCTURED_PROPERTIES'],
};

/** The `me { platformPrivileges }` booleans of an actor, from the privileges it holds for this request. */
export function platformPrivilegesOf(actor: Actor): Required<Omit<PlatformPrivileges, '__typename'>> {
  const entries = Object.entries(GRANTED_BY).map(([field, anyOf]) => [field, anyOf.some((p) => actor.privileges.has(p))]);
  return Object.fromEntries(entries) as Required<Omit<PlatformPrivileges, '__typename'>>;
}
