// What faces and other packages may use of the service layer: the service, its reads, its policy's vocabulary, and
// the types of what it stores (re-exported, so nothing outside `service/` imports `store/`).
export { createEntityService, SYSTEM_ACTOR, type AspectChange, type Denied, type EntityService, type Grant } from './entity-service';
export { EntityReader, type ReadVia } from './reader';
export { entityUserDirectory } from './user-directory';
export { entityRoleDirectory } from './role-directory';
export { formInfoOf, groupsOf, namesActor } from './form-authority';
export { GLOSSARY_INFO } from './glossary-authority';
export { anyOf, editPrivileges, DATAHUB_DEFAULT_SWITCHES, type AuthorizationSwitches, type PrivilegeGroups } from './policy';
export { ALL_USERS_POLICIES, ingestDefaultPolicies, type BootPolicy } from './seed';
export { readUrnParameter, urnParameter, type Edit } from './proposals';
export type {
  IngestSummary,
  LatestPoint,
  PlacedProposal,
  PointsRequest,
  ProposalPlace,
  TimeseriesIngestPort,
  TimeseriesReader,
} from './ports';
export { ItemWriteError, type ChangeType, type StoredAspect, type SystemMetadata, type WriteResult } from '../store/port';
