import { badRequest } from '@mds/schema';

const CORP_USER_PREFIX = 'urn:li:corpuser:';

/** The root user: an Admin from the first migration (spec 3). */
export const ROOT_ACTOR_URN = 'urn:li:corpuser:datahub';

/**
 * The system client's actor (`Authorization: Basic <id>:<secret>`). It holds every privilege, is not a row of the
 * users table, and can neither hold a role nor be the actor of an access token.
 */
export const SYSTEM_ACTOR_URN = 'urn:li:corpuser:__datahub_system';

/** Longest actor urn accepted; keeps a bad client from storing megabytes per user row. */
const MAX_URN_LENGTH = 512;

/** The id part of a corpuser urn: `datahub` for `urn:li:corpuser:datahub` (the JWT `actorId`/`sub` claims). */
export function corpUserId(urn: string): string {
  return urn.slice(CORP_USER_PREFIX.length);
}

export function corpUserUrn(id: string): string {
  return CORP_USER_PREFIX + id;
}

/** Whether `urn` is a well-formed user urn: the corpuser prefix, then a non-empty id without spaces or control characters. */
export function isCorpUserUrn(urn: string): boolean {
  return urn.length <= MAX_URN_LENGTH && urn.startsWith(CORP_USER_PREFIX) && /^[^\s\p{Cc}]+$/u.test(corpUserId(urn));
}

/** Checks a caller-supplied user urn, answering 400 naming the field and the rule. */
export function requireCorpUserUrn(urn: string, field: string): string {
  if (!isCorpUserUrn(urn)) {
    throw badRequest(
      `Field '${field}': '${urn}' is not a user urn; expected ${CORP_USER_PREFIX}<id> ` +
        `(non-empty id without whitespace, at most ${MAX_URN_LENGTH} characters).`,
    );
  }
  return urn;
}

/** Refuses the system actor where only real users make sense (roles, token actors). */
export function requireNotSystemActor(urn: string, field: string): void {
  if (urn === SYSTEM_ACTOR_URN) {
    throw badRequest(
      `Field '${field}': ${SYSTEM_ACTOR_URN} is the system client; it authenticates with its client secret and cannot hold roles or access tokens.`,
    );
  }
}
