import { createSecretKey, hash, randomUUID, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

/** DataHub's issuer claim. */
export const TOKEN_ISSUER = 'datahub-metadata-service';
/** Version "2": a stored, revocable token; the only version mds mints or accepts. */
export const TOKEN_VERSION = '2';

/** The claims mds relies on once a token's signature checked out. */
export interface VerifiedClaims {
  actorId: string;
  /** PERSONAL (an access token) or SESSION (minted at sign-in). */
  type: 'PERSONAL' | 'SESSION';
  /** Seconds since the epoch; undefined never expires. */
  exp: number | undefined;
}

/**
 * The HS256 key: DataHub signs with the raw UTF-8 bytes of the configured string. Imported once, since jose would
 * otherwise import raw bytes again on every sign and verify.
 */
export function signingKeyOf(signingKey: string): KeyObject {
  return createSecretKey(Buffer.from(signingKey, 'utf8'));
}

/** The stored id of a token (spec 2): base64(sha256(token bytes ++ salt bytes)). */
export function hashToken(token: string, salt: string): string {
  // One-shot crypto.hash: less than half the cost of a Hash object.
  return hash('sha256', token + salt, 'base64');
}

/** Signs a personal access token (or a SESSION one) with DataHub's claims; `exp` is left out when it never expires. */
export async function mintToken(options: {
  key: KeyObject;
  actorId: string;
  nowMs: number;
  expiresInMs: number | null;
  type?: 'PERSONAL' | 'SESSION';
}): Promise<string> {
  const { key, actorId, nowMs, expiresInMs, type = 'PERSONAL' } = options;
  const jwt = new SignJWT({ version: TOKEN_VERSION, type, actorType: 'USER', actorId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(actorId)
    .setJti(randomUUID())
    .setIssuer(TOKEN_ISSUER)
    .setIssuedAt(Math.floor(nowMs / 1000));
  if (expiresInMs !== null) jwt.setExpirationTime(Math.floor((nowMs + expiresInMs) / 1000));
  return jwt.sign(key);
}

/**
 * Verifies signature and claims, or returns null. Only HS256 is accepted (so `none`, RS256 and algorithm confusion
 * are refused), the issuer must be DataHub's, and the claims must be a version "2" personal or session token of a user.
 * Expiry is checked against `nowMs`; callers re-check it on every use of cached claims.
 */
export async function verifyTokenSignature(token: string, key: KeyObject, nowMs: number): Promise<VerifiedClaims | null> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: TOKEN_ISSUER, currentDate: new Date(nowMs) }));
  } catch {
    return null;
  }
  const { version, type, actorType, actorId, sub, exp } = payload;
  if (version !== TOKEN_VERSION || (type !== 'PERSONAL' && type !== 'SESSION') || actorType !== 'USER') return null;
  if (typeof actorId !== 'string' || !actorId || sub !== actorId) return null;
  return { actorId, type, exp: typeof exp === 'number' ? exp : undefined };
}

export function isExpired(claims: VerifiedClaims, nowMs: number): boolean {
  return claims.exp !== undefined && nowMs >= claims.exp * 1000;
}
