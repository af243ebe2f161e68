export {
  createMdsClient,
  type AccessTokenMetadata,
  type AuthenticatedUser,
  type MdsClient,
  type MdsClientOptions,
  type Tag,
} from './client';
export { MdsError } from './errors';
export {
  timeseriesProposal,
  type BulkByScrollStatus,
  type EsTaskStatus,
  type IndexSize,
  type MetadataChangeProposal,
  type TruncateTimeseriesAspectParams,
} from './rest-types';
export type { AccessTokenDuration, CreateTagInput, EntityType, ListAccessTokenInput } from './generated/graphql';
export {
  createOpenApiClient,
  type OpenApiClient,
  type OpenApiClientOptions,
  type OpenApiComponents,
  type OpenApiPaths,
  type OpenApiSchema,
} from './openapi-client';
