import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TokenSecrets {
  /** HS256 key; its raw UTF-8 bytes sign and verify access tokens (`DATAHUB_TOKEN_SERVICE_SIGNING_KEY`). */
  signingKey: string;
  /** Salt of the stored token hash (`DATAHUB_TOKEN_SERVICE_SALT`). */
  salt: string;
}

export interface SystemClient {
  id: string;
  secret: string;
}

type Env = Readonly<Record<string, string | undefined>>;

const SIGNING_KEY_VAR = 'DATAHUB_TOKEN_SERVICE_SIGNING_KEY';
const SALT_VAR = 'DATAHUB_TOKEN_SERVICE_SALT';
/** HS256 wants a key at least as long as its 256-bit output (RFC 7518 §3.2). */
const MIN_SIGNING_KEY_BYTES = 32;
const SECRETS_FILE = 'secrets.json';

/** An error for the operator: one line naming what to set. */
class ConfigurationError extends Error {
  override name = 'ConfigurationError';
}

/**
 * The token signing key and salt. Production requires both from the environment (key ≥ 32 bytes) and refuses to start
 * otherwise; there is no default secret anywhere. Development takes the environment when set, else random values
 * generated once and kept in `<dataDir>/secrets.json` (mode 0600) so tokens survive restarts.
 */
export function resolveTokenSecrets(options: { env: Env; dataDir: string; production: boolean }): TokenSecrets {
  const { env, dataDir, production } = options;
  const fromEnv = { signingKey: nonEmpty(env[SIGNING_KEY_VAR]), salt: nonEmpty(env[SALT_VAR]) };
  if (production) {
    if (!fromEnv.signingKey)
      throw new ConfigurationError(
        `${SIGNING_KEY_VAR} must be set in production (NODE_ENV=production): a random string of at least ${MIN_SIGNING_KEY_BYTES} bytes.`,
      );
    if (Buffer.byteLength(fromEnv.signingKey, 'utf8') < MIN_SIGNING_KEY_BYTES) {
      throw new ConfigurationError(
        `${SIGNING_KEY_VAR} is too short: HS256 needs at least ${MIN_SIGNING_KEY_BYTES} bytes, it has ${Buffer.byteLength(fromEnv.signingKey, 'utf8')}.`,
      );
    }
    if (!fromEnv.salt) throw new ConfigurationError(`${SALT_VAR} must be set in production (NODE_ENV=production): a random string.`);
    return { signingKey: fromEnv.signingKey, salt: fromEnv.salt };
  }
  if (fromEnv.signingKey && fromEnv.salt) return { signingKey: fromEnv.signingKey, salt: fromEnv.salt };
  const stored = loadOrCreateDevSecrets(dataDir);
  return { signingKey: fromEnv.signingKey ?? stored.signingKey, salt: fromEnv.salt ?? stored.salt };
}

function loadOrCreateDevSecrets(dataDir: string): TokenSecrets {
  const file = join(dataDir, SECRETS_FILE);
  mkdirSync(dataDir, { recursive: true });
  const generated: TokenSecrets = { signingKey: randomSecret(), salt: randomSecret() };
  try {
    // 'wx': never overwrite, so two processes starting at once agree on the first file written.
    writeFileSync(file, `${JSON.stringify(generated, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return generated;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  chmodSync(file, 0o600); // tighten a file someone loosened
  let parsed: Partial<TokenSecrets>;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<TokenSecrets>;
  } catch {
    parsed = {};
  }
  if (typeof parsed.signingKey !== 'string' || !parsed.signingKey || typeof parsed.salt !== 'string' || !parsed.salt) {
    throw new ConfigurationError(
      `${file} is not valid: expected JSON {"signingKey": "...", "salt": "..."}; delete it to generate new secrets (existing tokens stop working).`,
    );
  }
  return { signingKey: parsed.signingKey, salt: parsed.salt };
}

/** The system client when both `DATAHUB_SYSTEM_CLIENT_ID` and `DATAHUB_SYSTEM_CLIENT_SECRET` are set; none otherwise (Basic auth off). */
export function resolveSystemClient(env: Env): SystemClient | undefined {
  const id = nonEmpty(env.DATAHUB_SYSTEM_CLIENT_ID);
  const secret = nonEmpty(env.DATAHUB_SYSTEM_CLIENT_SECRET);
  if (id && secret) return { id, secret };
  if (id)
    throw new ConfigurationError(
      'DATAHUB_SYSTEM_CLIENT_ID is set but DATAHUB_SYSTEM_CLIENT_SECRET is not: set both, or neither to turn system-client auth off.',
    );
  if (secret)
    throw new ConfigurationError(
      'DATAHUB_SYSTEM_CLIENT_SECRET is set but DATAHUB_SYSTEM_CLIENT_ID is not: set both, or neither to turn system-client auth off.',
    );
  return undefined;
}

/** `ACCESS_TOKEN_ALLOW_NO_EXPIRY=true` lets tokens be created with NO_EXPIRY. */
export function resolveAllowNoExpiry(env: Env): boolean {
  return env.ACCESS_TOKEN_ALLOW_NO_EXPIRY?.trim().toLowerCase() === 'true';
}

const randomSecret = () => randomBytes(32).toString('base64url');
const nonEmpty = (value: string | undefined) => (value ? value : undefined);
