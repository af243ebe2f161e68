import { parseUrn, UrnError } from '@mds/core';
import { badRequest } from '@mds/schema';

export const MAX_ID_LENGTH = 200;
export const MAX_NAME_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 5_000;

// Ids end up inside URNs: whitespace and control characters make them unreadable, and `,()` are URN tuple syntax.
const FORBIDDEN_IN_ID = /[\s\p{Cc},()]/u;
const COLOR_HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** Whether `value` is longer than `max` characters, counted in code points (as a user counts), not UTF-16 units. */
function longerThan(value: string, max: number): boolean {
  if (value.length <= max) return false; // a code point is one or two UTF-16 units
  if (value.length > 2 * max) return true;
  let n = 0;
  for (const _ of value) if (++n > max) return true;
  return false;
}

/** The rule a tag id breaks, or null when it is valid (shared by `id` inputs and URN arguments). */
export function idViolation(id: string): string | null {
  if (id.length === 0 || longerThan(id, MAX_ID_LENGTH)) return `must be 1 to ${MAX_ID_LENGTH} characters long`;
  if (FORBIDDEN_IN_ID.test(id)) return `must not contain whitespace, control characters, ',', '(' or ')'`;
  try {
    parseUrn(`urn:li:tag:${id}`);
  } catch (error) {
    // DataHub's own limits on any URN (512 bytes URL-encoded, no U+241F), which a long non-ASCII id can break.
    if (error instanceof UrnError) return `must form a urn DataHub accepts (${error.message.replace(/^Error: /, '')})`;
    throw error;
  }
  return null;
}

function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw badRequest(`'${field}' must be a string`);
  return value;
}

export function validateId(value: unknown, field = 'id'): string {
  const violation = idViolation(requireString(value, field));
  if (violation) throw badRequest(`'${field}' ${violation}`);
  return value as string;
}

export function validateName(value: unknown, field = 'name'): string {
  const name = requireString(value, field);
  if (name.trim() === '') throw badRequest(`'${field}' must not be blank`);
  if (longerThan(name, MAX_NAME_LENGTH)) throw badRequest(`'${field}' must be at most ${MAX_NAME_LENGTH} characters long`);
  return name;
}

/** null/undefined pass through (no description); a string is kept exactly as given, empty included. */
export function validateDescription<T extends string | null | undefined>(value: T, field = 'description'): T {
  if (value === null || value === undefined) return value;
  if (longerThan(requireString(value, field), MAX_DESCRIPTION_LENGTH)) {
    throw badRequest(`'${field}' must be at most ${MAX_DESCRIPTION_LENGTH} characters long`);
  }
  return value;
}

export function validateColorHex(value: unknown, field = 'colorHex'): string {
  if (typeof value !== 'string' || !COLOR_HEX.test(value)) throw badRequest(`'${field}' must be a color #RGB or #RRGGBB`);
  return value;
}
