import type { Actor } from '@mds/schema';
import { createHash, timingSafeEqual, type KeyObject } from 'node:crypto';
import { corpUserUrn, SYSTEM_ACTOR_URN } from './actors';
import type { Credential, Store } from './db/store';
import { LruCache } from './lru';
import { ALL_PRIVILEGES, type Privilege } from './privileges';
import type { SystemClient } from './secrets';
import { hashToken, isExpired, verifyTokenSignature, type VerifiedClaims } from './tokens-jwt';

/** Verified signatures kept in memory; beyond this the least recently used are verified again. */
const SIGNATURE_CACHE_SIZE = 10_000;

/** A known token: its claims, its stored id and the actor it names, so a repeated call neither hashes nor verifies. */
interface KnownToken {
  claims: VerifiedClaims;
  id: string;
  actorUrn: string;
}

export interface Authenticator {
  /**
   * The caller behind an `Authorization` header, or null (the host answers 401). Synchronous for a token whose
   * signature was already verified and whose credential is cached; otherwise the signature check or the database
   * read makes it a promise.
   */
  authenticate(authorization: string | undefined): Actor | null | Promise<Actor | null>;
  /** Forgets cached signatures (tests, shutdown). */
  clearCache(): void;
}

/**
 * Bearer access tokens and the Basic system client. Verified signatures are cached, keyed by the token itself (it is
 * in the request's memory anyway; only its salted hash is ever stored). Whether the token still exists (revocation),
 * whether it expired, and the user's current role are asked of the store on every call: it caches them only while no
 * commit has been made (SQLite's commit stamp), and on PostgreSQL reads them every time, so a revocation or role
 * change, on this replica or another, applies to the very next request.
 */
export function createAuthenticator(options: {
  store: Store;
  signingKey: KeyObject;
  salt: string;
  systemClient?: SystemClient;
  /** The privileges of a user, from its roles (role-keeper.ts); `tableRole` is the users table's. */
  privilegesOf: (userUrn: string, tableRole: string | null) => ReadonlySet<Privilege> | Promise<ReadonlySet<Privilege>>;
  now: () => number;
}): Authenticator {
  const { store, signingKey, salt, now, privilegesOf } = options;
  const known = new LruCache<string, KnownToken>(SIGNATURE_CACHE_SIZE);
  const checkSystemClient = options.systemClient ? systemClientMatcher(options.systemClient) : () => false;
  const systemActor: Actor = { urn: SYSTEM_ACTOR_URN, privileges: ALL_PRIVILEGES };

  async function verify(token: string, nowMs: number): Promise<Actor | null> {
    const claims = await verifyTokenSignature(token, signingKey, nowMs); // refuses expired tokens too
    if (!claims) return null;
    const verified: KnownToken = { claims, id: hashToken(token, salt), actorUrn: corpUserUrn(claims.actorId) };
    known.set(token, verified);
    return actorOf(verified, nowMs);
  }

  function authenticateBearer(token: string): Actor | null | Promise<Actor | null> {
    const nowMs = now();
    const verified = known.get(token);
    if (!verified) return verify(token, nowMs);
    if (isExpired(verified.claims, nowMs)) {
      known.delete(token);
      return null;
    }
    return actorOf(verified, nowMs);
  }

  /** The actor of a token whose signature checked out, as the store has it now (synchronously when cached). */
  function actorOf(token: KnownToken, nowMs: number): Actor | null | Promise<Actor | null> {
    const credential = store.credential(token.id, token.claims.type);
    return credential instanceof Promise
      ? credential.then((c) => actorOfCredential(token, c, nowMs))
      : actorOfCredential(token, credential, nowMs);
  }

  function actorOfCredential(token: KnownToken, credential: Credential | undefined, nowMs: number): Actor | null | Promise<Actor | null> {
    if (!credential) return null; // revoked, or never stored
    if (credential.actorUrn !== token.actorUrn) return null;
    if (credential.expiresAt !== null && nowMs >= credential.expiresAt) return null;
    if (!credential.user) return null; // the user is gone
    const urn = credential.actorUrn;
    const privileges = privilegesOf(urn, credential.user.roleUrn);
    return privileges instanceof Promise ? privileges.then((p) => ({ urn, privileges: p })) : { urn, privileges };
  }

  return {
    authenticate(authorization) {
      // `<scheme> <credentials>`, split by hand: a regular expression over a 300-character token costs more than
      // the whole cached lookup.
      const text = authorization?.trim() ?? '';
      const gap = text.search(/\s/);
      if (gap < 0) return null;
      const scheme = text.slice(0, gap);
      const credentials = text.slice(gap + 1).trimStart();
      // Auth schemes are case-insensitive (RFC 9110 §11.1); DataHub clients send `Bearer`/`bearer` and `Basic`.
      switch (scheme.toLowerCase()) {
        case 'bearer':
          return authenticateBearer(credentials);
        case 'basic':
          return checkSystemClient(credentials) ? systemActor : null;
        default:
          return null;
      }
    },
    clearCache: () => known.clear(),
  };
}

/**
 * Matches `<id>:<secret>` sent plain (as DataHub's clients do) or base64-encoded (RFC 7617). Compares sha256 digests
 * with timingSafeEqual, so neither the content nor the length of the secret leaks through timing.
 */
function systemClientMatcher(client: SystemClient): (credentials: string) => boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  const expectedId = digest(client.id);
  const expectedSecret = digest(client.secret);
  return (credentials) => {
    const pair = credentials.includes(':') ? credentials : decodeBase64(credentials);
    const colon = pair?.indexOf(':') ?? -1;
    if (!pair || colon < 0) return false;
    const idMatches = timingSafeEqual(digest(pair.slice(0, colon)), expectedId);
    const secretMatches = timingSafeEqual(digest(pair.slice(colon + 1)), expectedSecret);
    return idMatches && secretMatches;
  };
}

function decodeBase64(text: string): string | undefined {
  return /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64').toString('utf8') : undefined;
}
