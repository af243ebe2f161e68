import { hasAnyPrivilege, requirePrivilege, RESOURCE_OWNER_PRIVILEGES, type Privilege } from '@mds/auth';
import { findEntityOfUrn, isJsonObject, UrnError } from '@mds/core';
import { badRequest, type Actor } from '@mds/schema';
import { ItemWriteError, type AspectStore, type AspectWrite, type Audit } from '../aspect-store';

/** A JSON Pointer token (RFC 6901): a field path or urn as one path segment of a PATCH. */
export const pointer = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** The registry name of a stored entity's type, or undefined when the urn is malformed, of no known type, or absent. */
export async function entityTypeOf(store: AspectStore, urn: string): Promise<string | undefined> {
  const entityType = findEntityOfUrn(urn)?.name;
  return entityType && (await store.exists(urn)) ? entityType : undefined;
}

/** A mutation's writes, all or none; the failing item's error is the answer. Resolves true, as DataHub's do. */
export async function writeAll(store: AspectStore, writes: readonly AspectWrite[], audit: Audit): Promise<true> {
  try {
    await store.write(writes, audit);
  } catch (error) {
    throw error instanceof ItemWriteError ? error.error : error;
  }
  return true;
}

/** How many times a read-modify-write is tried when other writes keep moving the aspect between its read and write. */
const MAX_ATTEMPTS = 8;

/**
 * A read-modify-write of one aspect that loses no concurrent edit: the write is conditional on the version read
 * (`If-Version-Match`), and one that lost the race reads again and reapplies `modify`. Answers the value written
 * and whether it was a new version (an identical value writes none).
 */
export async function updateAspect(
  store: AspectStore,
  target: { urn: string; entityType: string; aspect: string },
  modify: (current: Record<string, unknown> | undefined) => Record<string, unknown>,
  audit: Audit,
): Promise<{ value: Record<string, unknown>; written: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const current = (await store.latest([target.urn], [target.aspect])).get(target.urn)?.get(target.aspect);
    const value = modify(current?.value);
    const version = current?.systemMetadata?.version;
    const headers = { 'If-Version-Match': version === undefined ? '-1' : String(version) };
    try {
      const [result] = await store.write([{ ...target, changeType: 'UPSERT', value, headers }], audit);
      return { value, written: result!.outcome === 'written' };
    } catch (error) {
      const moved = error instanceof ItemWriteError && error.error.message.includes('(If-Version-Match)');
      if (!moved || attempt === MAX_ATTEMPTS) throw error instanceof ItemWriteError ? error.error : error;
    }
  }
}

/**
 * The dataset field a mutation's `subResourceType`/`subResource` name, undefined for the entity itself; one without
 * the other is DataHub's T4 (its second text's typo included).
 */
export function fieldOf(urn: string, ref: { subResourceType?: string | null; subResource?: string | null }): string | undefined {
  const { subResourceType, subResource } = ref;
  if (subResourceType && !subResource)
    throw badRequest(`Failed to update resource with urn ${urn}. SubResourceType (${subResourceType}) provided without a subResource.`);
  if (subResource && !subResourceType)
    throw badRequest(`Failed to updates resource with urn ${urn}. SubResource (${subResource}) provided without a subResourceType.`);
  return subResourceType === 'DATASET_FIELD' && subResource ? subResource : undefined;
}

/** A field mutations may edit: one of the dataset's ingested schema (DataHub's T5, T6). */
export async function requireSchemaField(store: AspectStore, urn: string, fieldPath: string): Promise<void> {
  const schema = (await store.latest([urn], ['schemaMetadata'])).get(urn)?.get('schemaMetadata')?.value;
  if (!schema) throw badRequest(`Failed to update ${urn} & field ${fieldPath}. ${urn} has no schema.`);
  const fields = Array.isArray(schema.fields) ? schema.fields.filter(isJsonObject) : [];
  if (!fields.some((f) => f.fieldPath === fieldPath))
    throw badRequest(`Failed to update ${urn} & field ${fieldPath}. Field ${fieldPath} does not exist in the datasets schema.`);
}

/**
 * The reference 403 unless the caller's role grants one of `anyOf`, or the caller owns `urn` and owners may do it
 * (DataHub's default "Asset Owners - Metadata Policy": an owner edits what it owns, whatever its role). Ownership
 * through a group is not modelled: mds keeps no group memberships.
 */
export async function requireEntityPrivilege(store: AspectStore, actor: Actor, urn: string, anyOf: readonly Privilege[]): Promise<void> {
  if (hasAnyPrivilege(actor, anyOf)) return;
  if (anyOf.some((p) => RESOURCE_OWNER_PRIVILEGES.has(p)) && (await isOwner(store, actor.urn, urn))) return;
  requirePrivilege(actor, anyOf);
}

async function isOwner(store: AspectStore, actorUrn: string, urn: string): Promise<boolean> {
  let ownership;
  try {
    ownership = (await store.latest([urn], ['ownership'])).get(urn)?.get('ownership')?.value;
  } catch (error) {
    // A malformed urn has no owner; the mutation's own check names the problem.
    if (error instanceof UrnError) return false;
    throw error;
  }
  return Array.isArray(ownership?.owners) && ownership.owners.some((o) => isJsonObject(o) && o.owner === actorUrn);
}
