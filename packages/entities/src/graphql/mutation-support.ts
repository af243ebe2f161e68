import { findEntity, parseUrn, UrnError } from '@mds/core';
import { ItemWriteError, type AspectStore, type AspectWrite, type Audit } from '../aspect-store';

/** A JSON Pointer token (RFC 6901): a field path or urn as one path segment of a PATCH. */
export const pointer = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** The registry name of a stored entity's type, or undefined when the urn is malformed, of no known type, or absent. */
export async function entityTypeOf(store: AspectStore, urn: string): Promise<string | undefined> {
  let entityType: string | undefined;
  try {
    entityType = findEntity(parseUrn(urn).entityType)?.name;
  } catch (error) {
    if (!(error instanceof UrnError)) throw error;
  }
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
