import { badRequest } from '@mds/schema';
import { idViolation } from './validation';

export const TAG_URN_PREFIX = 'urn:li:tag:';

export const tagUrn = (id: string) => `${TAG_URN_PREFIX}${id}`;

/** The id inside a tag URN; anything but `urn:li:tag:<valid id>` is a 400 naming the argument (`field`). */
export function parseTagUrn(urn: unknown, field = 'urn'): string {
  if (typeof urn !== 'string' || !urn.startsWith(TAG_URN_PREFIX)) {
    throw badRequest(`'${field}' must be a tag urn of the form urn:li:tag:<id>`);
  }
  const id = urn.slice(TAG_URN_PREFIX.length);
  const violation = idViolation(id);
  if (violation) throw badRequest(`'${field}' must be a tag urn urn:li:tag:<id> whose id ${violation}`);
  return id;
}
