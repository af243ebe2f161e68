import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAllowNoExpiry, resolveSystemClient, resolveTokenSecrets } from '../src/index';
import { tempDir } from './helpers';

const KEY = 'k'.repeat(32);

describe('resolveTokenSecrets in production', () => {
  it('takes both from the environment', () => {
    const env = { DATAHUB_TOKEN_SERVICE_SIGNING_KEY: KEY, DATAHUB_TOKEN_SERVICE_SALT: 'salt' };
    expect(resolveTokenSecrets({ env, dataDir: tempDir(), production: true })).toEqual({ signingKey: KEY, salt: 'salt' });
  });

  it.each([
    ['a missing key', { DATAHUB_TOKEN_SERVICE_SALT: 'salt' }, /^DATAHUB_TOKEN_SERVICE_SIGNING_KEY must be set in production/],
    [
      'a key under 32 bytes',
      { DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'k'.repeat(31), DATAHUB_TOKEN_SERVICE_SALT: 'salt' },
      /^DATAHUB_TOKEN_SERVICE_SIGNING_KEY is too short/,
    ],
    ['a missing salt', { DATAHUB_TOKEN_SERVICE_SIGNING_KEY: KEY }, /^DATAHUB_TOKEN_SERVICE_SALT must be set in production/],
  ])('refuses %s with one line naming the variable', (_case, env, message) => {
    const dataDir = tempDir();
    let error: unknown;
    try {
      resolveTokenSecrets({ env, dataDir, production: true });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
    expect(() => statSync(join(dataDir, 'secrets.json'))).toThrow(); // never falls back to generated secrets
  });

  it('counts the key length in UTF-8 bytes', () => {
    const key = 'é'.repeat(16); // 16 characters, 32 bytes
    expect(
      resolveTokenSecrets({
        env: { DATAHUB_TOKEN_SERVICE_SIGNING_KEY: key, DATAHUB_TOKEN_SERVICE_SALT: 's' },
        dataDir: tempDir(),
        production: true,
      }).signingKey,
    ).toBe(key);
  });
});

describe('resolveTokenSecrets in development', () => {
  it('generates random secrets once, in secrets.json (0600), and reuses them', () => {
    const dataDir = join(tempDir(), 'data');
    const first = resolveTokenSecrets({ env: {}, dataDir, production: false });
    expect(Buffer.byteLength(first.signingKey)).toBeGreaterThanOrEqual(32);
    expect(first.salt).not.toBe(first.signingKey);

    const file = join(dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(first);
    expect(resolveTokenSecrets({ env: {}, dataDir, production: false })).toEqual(first);
    expect(resolveTokenSecrets({ env: {}, dataDir: tempDir(), production: false }).signingKey).not.toBe(first.signingKey);
  });

  it('lets the environment win, per variable', () => {
    const dataDir = tempDir();
    const stored = resolveTokenSecrets({ env: {}, dataDir, production: false });
    expect(resolveTokenSecrets({ env: { DATAHUB_TOKEN_SERVICE_SIGNING_KEY: KEY }, dataDir, production: false })).toEqual({
      signingKey: KEY,
      salt: stored.salt,
    });
    expect(
      resolveTokenSecrets({ env: { DATAHUB_TOKEN_SERVICE_SIGNING_KEY: KEY, DATAHUB_TOKEN_SERVICE_SALT: 's' }, dataDir, production: false }),
    ).toEqual({ signingKey: KEY, salt: 's' });
  });

  it('refuses a damaged secrets.json rather than replacing it', () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, 'secrets.json'), '{"signingKey": 1}');
    expect(() => resolveTokenSecrets({ env: {}, dataDir, production: false })).toThrow(/secrets\.json is not valid/);
  });
});

describe('other settings', () => {
  it('configures the system client only when both variables are set', () => {
    expect(resolveSystemClient({})).toBeUndefined();
    expect(resolveSystemClient({ DATAHUB_SYSTEM_CLIENT_ID: 'id', DATAHUB_SYSTEM_CLIENT_SECRET: 's' })).toEqual({ id: 'id', secret: 's' });
    expect(() => resolveSystemClient({ DATAHUB_SYSTEM_CLIENT_ID: 'id' })).toThrow(/DATAHUB_SYSTEM_CLIENT_SECRET is not/);
  });

  it('allows NO_EXPIRY only for ACCESS_TOKEN_ALLOW_NO_EXPIRY=true', () => {
    expect(resolveAllowNoExpiry({})).toBe(false);
    expect(resolveAllowNoExpiry({ ACCESS_TOKEN_ALLOW_NO_EXPIRY: 'false' })).toBe(false);
    expect(resolveAllowNoExpiry({ ACCESS_TOKEN_ALLOW_NO_EXPIRY: 'true' })).toBe(true);
  });
});
