import { isJsonObject } from '@mds/core';
import type { OwnershipSourceType, OwnershipType, ResolversTypes } from '@mds/schema';

/** DataHub's OwnershipType values, the deprecated ones included (older ingestion still writes DATAOWNER). */
const OWNERSHIP_TYPES = new Set([
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'CUSTOM',
  'DATAOWNER',
  'PRODUCER',
  'DEVELOPER',
  'CONSUMER',
  'DELEGATE',
  'STAKEHOLDER',
]);
/** DataHub's OwnershipSourceType values. */
const SOURCE_TYPES = new Set(['AUDIT', 'DATABASE', 'FILE_SYSTEM', 'ISSUE_TRACKING_SYSTEM', 'MANUAL', 'OTHER', 'SERVICE', 'SOURCE_CONTROL']);
/** DataHub's system ownership type urn for each legacy `type` (OwnershipTypeUtils). */
export const systemTypeUrn = (type: string) => `urn:li:ownershipType:__system__${type.toLowerCase()}`;

/** The `ownership` value a create mutation writes: its creator a technical owner (DataHub's OwnerUtils.addCreatorAsOwner). */
export const creatorOwnership = (stamp: { time: number; actor: string }) => ({
  owners: [{ owner: stamp.actor, type: 'TECHNICAL_OWNER', typeUrn: systemTypeUrn('TECHNICAL_OWNER') }],
  lastModified: stamp,
});
/** DataHub's default when an aspect says nothing (AuditStamp's PDL default). */
export const UNKNOWN_STAMP = { time: 0, actor: 'urn:li:corpuser:unknown' } as const;

/** The id of a single-part urn (`jdoe` of `urn:li:corpuser:jdoe`). */
export const idOf = (urn: string) => urn.slice(urn.indexOf(':', 'urn:li:'.length) + 1);

/** A user or group urn as the `OwnerType` union answers it; other urns are no owner GraphQL can show. */
export function ownerEntity(urn: string): ResolversTypes['OwnerType'] | undefined {
  if (urn.startsWith('urn:li:corpuser:')) return { __typename: 'CorpUser', urn, type: 'CORP_USER', username: idOf(urn) };
  if (urn.startsWith('urn:li:corpGroup:')) return { __typename: 'CorpGroup', urn, type: 'CORP_GROUP', name: idOf(urn) };
  return undefined;
}

/**
 * An `ownership` aspect value as DataHub's GraphQL `Ownership` of `associatedUrn`, built ahead of any request (a tag's
 * face answers whole objects); entity types declared as mappings answer it through COMMON_FIELDS instead.
 */
export function toGraphQLOwnership(value: unknown, associatedUrn: string): ResolversTypes['Ownership'] | null {
  if (!isJsonObject(value)) return null;
  const owners = (Array.isArray(value.owners) ? value.owners : []).filter(isJsonObject).flatMap((owner) => {
    const entity = typeof owner.owner === 'string' ? ownerEntity(owner.owner) : undefined;
    if (!entity) return [];
    const type = typeof owner.type === 'string' && OWNERSHIP_TYPES.has(owner.type) ? (owner.type as OwnershipType) : null;
    const typeUrn = typeof owner.typeUrn === 'string' ? owner.typeUrn : type ? systemTypeUrn(type) : null;
    const sourceType = isJsonObject(owner.source) ? owner.source.type : undefined;
    const source =
      isJsonObject(owner.source) && typeof sourceType === 'string' && SOURCE_TYPES.has(sourceType)
        ? { type: sourceType as OwnershipSourceType, url: typeof owner.source.url === 'string' ? owner.source.url : null }
        : null;
    return [
      {
        owner: entity,
        type,
        ownershipType: typeUrn
          ? { __typename: 'OwnershipTypeEntity' as const, urn: typeUrn, type: 'CUSTOM_OWNERSHIP_TYPE' as const }
          : null,
        source,
        associatedUrn,
      },
    ];
  });
  const stamp = value.lastModified;
  const lastModified =
    isJsonObject(stamp) && typeof stamp.time === 'number'
      ? { time: stamp.time, actor: typeof stamp.actor === 'string' ? stamp.actor : null }
      : UNKNOWN_STAMP;
  return { owners, lastModified };
}
