export { createEntities, type Entities, type EntitiesDeps } from './module';
export {
  ItemWriteError,
  SYSTEM_ACTOR,
  anyOf,
  editPrivileges,
  type AuthorizationSwitches,
  type ChangeType,
  type Edit,
  type EntityReader,
  type EntityService,
  type Grant,
  type IngestSummary,
  type LatestPoint,
  type PlacedProposal,
  type PointsRequest,
  type PrivilegeGroups,
  type ProposalPlace,
  type StoredAspect,
  type SystemMetadata,
  type TimeseriesIngestPort,
  type TimeseriesReader,
  type WriteResult,
} from './service';
export { entityRoleDirectory, entityUserDirectory } from './service';
export { ALL_USERS_POLICIES } from './service';
export { ASPECT_STORE_TABLES } from './store/sql-store';
export { BATCH_ANSWER, MAX_PROPOSALS_PER_BATCH } from './restli/endpoints';
export { fileItemProposals, pegasusSnapshot } from './file-format';
export { buildApiDocument } from './openapi/api-docs';
export { createEntityGraphql } from './graphql/module';
export { ownerEntity, toGraphQLOwnership } from './graphql/ownership';
export type { EntityFace } from './graphql/request-loaders';
export { pointer } from './graphql/mutation-support';
export { ownershipFromUpdate } from './graphql/update-mutations';
export type { DescriptionHandler } from './graphql/description';
export { supportsPatch } from './model/patch';
