import { Privilege } from '@mds/auth';
import { DATAHUB_MODEL, findEntity, timeseriesAspectsOf } from '@mds/core';
import type { ApiContext } from '@mds/schema';

let requests = 0;
/** A request of its own (a server gives each one its own reads) by an actor holding `privileges` by role. */
export const actor = (urn: string, ...privileges: Privilege[]): { context: ApiContext } => ({
  context: { actor: { urn, privileges: new Set([Privilege.VIEW_ENTITY_PAGE, ...privileges]) }, requestId: `edit-${++requests}` },
});

/** The message and HTTP code of each error of a GraphQL answer (undefined when it has none). */
export const errorOf = (result: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) =>
  result.errors?.map((e) => ({ message: e.message, code: e.extensions?.code }));

const TIMESERIES = new Set(DATAHUB_MODEL.entities.flatMap((entity) => timeseriesAspectsOf(findEntity(entity.name)!)));
/** A golden file's items to keep here: its time-series points are for the server's tests (this package stores none). */
export const versionedOnly = (_urn: string, aspect: string) => !TIMESERIES.has(aspect);

/** A dataset urn of the PROD fabric. */
export const ds = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;

/** An UPSERT of one aspect, as the service's `ingest` takes it (the entity type read from the urn). */
export const upsert = (entityUrn: string, aspectName: string, value: unknown) => ({
  proposal: {
    entityType: entityUrn.split(':')[2]!,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value) },
  },
  place: { action: 'test', path: aspectName },
});

/** A stored METADATA policy granting `user` one privilege on one entity (an UPSERT of its dataHubPolicyInfo). */
export const userPolicyOn = (id: string, user: string, privilege: string, urn: string) =>
  upsert(`urn:li:dataHubPolicy:${id}`, 'dataHubPolicyInfo', {
    displayName: id,
    description: '',
    type: 'METADATA',
    state: 'ACTIVE',
    privileges: [privilege],
    actors: { users: [user], resourceOwners: false, allUsers: false, allGroups: false },
    editable: true,
    resources: { allResources: false, filter: { criteria: [{ field: 'URN', values: [urn], condition: 'EQUALS' }] } },
  });
