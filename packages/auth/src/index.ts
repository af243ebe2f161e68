export { createAuth, type Auth, type AuthOptions, type AuthService } from './create-auth';
export { resolveAllowNoExpiry, resolveSystemClient, resolveTokenSecrets, type SystemClient, type TokenSecrets } from './secrets';
export { ALL_PRIVILEGES, Privilege, RESOURCE_OWNER_PRIVILEGES, hasAnyPrivilege, requirePrivilege } from './privileges';
export { PRIVILEGE_INFO, type PrivilegeInfo, type PrivilegeType } from './privilege-catalog';
export { ROLE_URNS, ROLES, privilegesOfRole, privilegesOfRoles, type Role, type RoleUrn } from './roles';
export { type RoleDirectory } from './role-keeper';
export { ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from './actors';
export { DURATION_MS } from './durations';
export { hashToken, TOKEN_ISSUER } from './tokens-jwt';
export { ASSIGN_ROLE_FORBIDDEN_MESSAGE } from './graphql/resolvers';
export type { AccessTokenMetadata, CreateTokenInput, ListTokensInput, ListTokensResult } from './token-service';
export { AUTH_TABLES, type TokenFilter } from './db/store';
export {
  DEFAULT_SESSION_DURATION_MS,
  type Credentials,
  type NativeUsers,
  type SignUpInput,
  type UserDirectory,
} from './credentials/service';
export { createAuthEndpoints, type TrackEvent } from './credentials/endpoints';
export { DEFAULT_SCRYPT_COST, decryptDatahubSecret, encryptDatahubSecret, type ScryptCost } from './credentials/passwords';
