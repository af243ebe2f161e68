import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt's cost for new passwords: N = 2^15, r = 8, p = 1 (about 32 MiB and tens of milliseconds per check). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}
export const DEFAULT_SCRYPT_COST: ScryptCost = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function scryptAsync(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_BYTES, { ...cost, maxmem: 256 * cost.N * cost.r + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** A new stored password: `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>`, so a later change of cost still verifies old ones. */
export async function hashPassword(password: string, cost: ScryptCost = DEFAULT_SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await scryptAsync(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** What a stored value is: mds's own scrypt, or unknown (never matches). */
export function storedKind(stored: string): 'scrypt' | 'unknown' {
  return stored.startsWith('scrypt$') ? 'scrypt' : 'unknown';
}

/** Checks a password against a stored `scrypt$…` value, in constant time. A malformed value never matches. */
export async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, hash] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (kind !== 'scrypt' || !salt || !hash || ![cost.N, cost.r, cost.p].every((v) => Number.isInteger(v) && v > 0)) return false;
  if (cost.N > 2 ** 20 || cost.r > 32 || cost.p > 16) return false; // never let a stored value make us burn gigabytes
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), cost);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * DataHub's native credential (`corpUserCredentials`): `hashedPassword` is base64(sha256(salt bytes ++ UTF-8 password)),
 * and `salt` is base64 of those bytes, encrypted with DataHub's secret (`SECRET_SERVICE_ENCRYPTION_KEY`): `v2:` +
 * base64(iv ++ AES-256-GCM ciphertext ++ tag) under HMAC-SHA256(sha256(secret), "DataHub-AES-GCM-Key"), or, in
 * older installations, AES-128-ECB under the first 16 bytes of sha1(secret). Answers false when the salt does not
 * decrypt under `secret`.
 */
export function verifyDatahubCredential(password: string, credential: { salt: string; hashedPassword: string }, secret: string): boolean {
  const saltText = decryptDatahubSecret(credential.salt, secret);
  if (saltText === undefined) return false;
  const digest = createHash('sha256')
    .update(Buffer.concat([Buffer.from(saltText, 'base64'), Buffer.from(password, 'utf8')]))
    .digest();
  const expected = Buffer.from(credential.hashedPassword, 'base64');
  return expected.length === digest.length && timingSafeEqual(expected, digest);
}

const DATAHUB_V2_PREFIX = 'v2:';
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

/** The key DataHub's secret service derives from its secret for AES-256-GCM. */
function datahubGcmKey(secret: string): Buffer {
  const initial = createHash('sha256').update(secret, 'utf8').digest();
  return createHmac('sha256', initial).update('DataHub-AES-GCM-Key', 'utf8').digest();
}

/** A value DataHub's secret service encrypted, decrypted; undefined when it does not decrypt under `secret`. */
export function decryptDatahubSecret(value: string, secret: string): string | undefined {
  try {
    if (value.startsWith(DATAHUB_V2_PREFIX)) {
      const combined = Buffer.from(value.slice(DATAHUB_V2_PREFIX.length), 'base64');
      if (combined.length < GCM_IV_BYTES + GCM_TAG_BYTES) return undefined;
      const iv = combined.subarray(0, GCM_IV_BYTES);
      const tag = combined.subarray(combined.length - GCM_TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', datahubGcmKey(secret), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(combined.subarray(GCM_IV_BYTES, combined.length - GCM_TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    }
    const key = createHash('sha1').update(secret, 'utf8').digest().subarray(0, 16);
    const decipher = createDecipheriv('aes-128-ecb', key, null);
    return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Encrypts as DataHub's secret service does (`v2:` AES-256-GCM): invite tokens under mds's own key, ingestion secrets under DataHub's. */
export function encryptDatahubSecret(value: string, secret: string): string {
  const iv = randomBytes(GCM_IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', datahubGcmKey(secret), iv);
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return DATAHUB_V2_PREFIX + Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString('base64');
}

/** DataHub's invite and reset tokens: `length` lowercase letters from a secure source (32 give about 150 bits). */
export function urlSafeToken(length = 32): string {
  return Array.from({ length }, () => String.fromCharCode(97 + randomInt(26))).join('');
}

/** DataHub's hash of an invite token (its entity id): base64(sha256(token)); mds keys reset tokens the same way. */
export function sha256Base64(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

/** Constant-time equality of two strings (compared as sha256 digests, so their lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}
