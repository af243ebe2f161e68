import { findEntityOfUrn, isJsonObject } from '@mds/core';
import { badRequest, type Actor } from '@mds/schema';
import { ItemWriteError, type Edit, type EntityReader, type EntityService, type Grant } from '../service';

/** A JSON Pointer token (RFC 6901): a field path or urn as one path segment of a PATCH. */
export const pointer = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** The reads a GraphQL caller makes (VIEW_AUTHORIZATION_ENABLED decides what they may see). */
export const graphqlReader = (service: EntityService, actor: Actor | undefined) => service.reader(actor, { api: 'graphql' });

/** The registry name of a stored entity's type, or undefined when the urn is malformed, of no known type, or absent. */
export async function entityTypeOf(reader: EntityReader, urn: string): Promise<string | undefined> {
  const entityType = findEntityOfUrn(urn)?.name;
  return entityType && (await reader.exists(urn)) ? entityType : undefined;
}

/** A mutation's writes, all or none; the failing item's error is the answer. Resolves true, as DataHub's do. */
export async function writeAll(
  service: EntityService,
  grant: Grant | readonly Grant[],
  edits: readonly Edit[],
  audit?: { time: number },
): Promise<true> {
  try {
    await service.write(grant, edits, audit);
  } catch (error) {
    throw error instanceof ItemWriteError ? error.error : error;
  }
  return true;
}

/**
 * A create mutation's writes, all or none, its first edit a CREATE_ENTITY: of concurrent creates of one urn exactly one
 * finds no key and writes; the others (and a create of an urn already stored) answer DataHub's 400 `exists`. Any other
 * refusal (a value the model refuses) is the failing item's own error.
 */
export async function writeCreate(
  service: EntityService,
  grant: Grant | readonly Grant[],
  edits: readonly Edit[],
  audit: { time: number } | undefined,
  exists: string,
): Promise<void> {
  try {
    await service.write(grant, edits, audit);
  } catch (error) {
    if (!(error instanceof ItemWriteError)) throw error;
    throw error.entityExists ? badRequest(exists) : error.error;
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
export async function requireSchemaField(reader: EntityReader, urn: string, fieldPath: string): Promise<void> {
  const schema = (await reader.latest([urn], ['schemaMetadata'])).get(urn)?.get('schemaMetadata')?.value;
  if (!schema) throw badRequest(`Failed to update ${urn} & field ${fieldPath}. ${urn} has no schema.`);
  const fields = Array.isArray(schema.fields) ? schema.fields.filter(isJsonObject) : [];
  if (!fields.some((f) => f.fieldPath === fieldPath))
    throw badRequest(`Failed to update ${urn} & field ${fieldPath}. Field ${fieldPath} does not exist in the datasets schema.`);
}
