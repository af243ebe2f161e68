export {
  ASPECT_STORE_TABLES,
  ItemWriteError,
  createAspectStore,
  type AspectStore,
  type AspectWrite,
  type Audit,
  type ChangeType,
  type StoredAspect,
  type SystemMetadata,
  type WriteResult,
} from './aspect-store';
export { canonicalJson } from './canonical-json';
export {
  authorizeEdit,
  createIngestion,
  type IngestSummary,
  type Ingestion,
  type LatestPoint,
  type PlacedProposal,
  type TimeseriesIngestPort,
} from './ingestion';
export { parseProposal, type ParsedProposal, type ProposalPlace } from './proposals';
export { BATCH_ANSWER, MAX_PROPOSALS_PER_BATCH, restliEndpoints } from './restli';
export { snapshotProposals } from './snapshots';
export { createEntities, type Entities } from './module';
export { fileItemProposals, pegasusSnapshot } from './file-format';
export { createEntityGraphql } from './graphql/module';
export { ownerEntity, toGraphQLOwnership } from './graphql/ownership';
export type { EntityFace } from './graphql/request-loaders';
export { pointer, updateAspect } from './graphql/mutation-support';
export type { DescriptionHandler } from './graphql/description';
export { supportsPatch } from './patch';
