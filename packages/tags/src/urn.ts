import { parseEntityUrn, UrnError } from '@mds/core';
import { badRequest } from '@mds/schema';

export const TAG_URN_PREFIX = 'urn:li:tag:';

export const tagUrn = (id: string) => `${TAG_URN_PREFIX}${id}`;

/**
 * The id inside a tag URN; anything but a tag urn ingestion would accept is a 400 naming the argument (`field`). A
 * URN argument follows the URN rule of every part of mds (`parseEntityUrn`), not the stricter rule for the id of a new
 * tag (`idViolation`): a tag ingested as `urn:li:tag:a b` is read, edited and deleted like any other.
 */
export function parseTagUrn(urn: unknown, field = 'urn'): string {
  if (typeof urn !== 'string' || !urn.startsWith(TAG_URN_PREFIX)) {
    throw badRequest(`'${field}' must be a tag urn of the form urn:li:tag:<id>`);
  }
  try {
    parseEntityUrn(urn);
  } catch (error) {
    if (!(error instanceof UrnError)) throw error;
    throw badRequest(`'${field}' must be a tag urn urn:li:tag:<id>: ${error.message}`);
  }
  return urn.slice(TAG_URN_PREFIX.length);
}
