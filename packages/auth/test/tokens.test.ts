import { ApiError } from '@mds/schema';
import { generateKeyPair, SignJWT } from 'jose';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DURATION_MS, Privilege, privilegesOfRole, ROLE_URNS, ROOT_ACTOR_URN } from '../src/index';
import { bearer, jwtPart, openTempDatabase, SECRETS, setup, tempDir, type Fixture } from './helpers';

const BOB = 'urn:li:corpuser:bob';
const HOUR = 3_600_000;

/** The spec's formula, written out here rather than borrowed from the code under test. */
const specHash = (token: string, salt: string) =>
  createHash('sha256')
    .update(Buffer.concat([Buffer.from(token, 'utf8'), Buffer.from(salt, 'utf8')]))
    .digest('base64');

async function withBob(options: Parameters<typeof setup>[0] = {}): Promise<Fixture> {
  const fixture = await setup(options);
  await fixture.auth.service.roles.assign('urn:li:dataHubRole:Reader', [BOB]);
  return fixture;
}

/**
 * Stores a crafted token's hash as if the server had issued it, so the test reaches the signature and claim checks
 * (a crafted token is otherwise refused earlier, simply because it was never stored).
 */
async function storeAsIssued({ db, clock }: Fixture, token: string, actorUrn = BOB): Promise<void> {
  await db.run(
    'INSERT INTO access_tokens (id, name, description, actor_urn, owner_urn, created_at, expires_at) VALUES (?, ?, NULL, ?, ?, ?, NULL)',
    [specHash(token, SECRETS.salt), 'crafted', actorUrn, actorUrn, clock.now()],
  );
}

const goodClaims = { version: '2', type: 'PERSONAL', actorType: 'USER', actorId: 'bob' };

function craft(claims: Record<string, unknown>, key: string | Uint8Array = SECRETS.signingKey, nowMs = Date.UTC(2025, 0, 1, 12)) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(claims.actorId))
    .setJti(randomUUID())
    .setIssuer('datahub-metadata-service')
    .setIssuedAt(Math.floor(nowMs / 1000))
    .setExpirationTime(Math.floor(nowMs / 1000) + 3600)
    .sign(typeof key === 'string' ? new TextEncoder().encode(key) : key);
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('minting', () => {
  it('signs HS256 with the raw UTF-8 bytes of the key and DataHub claims', async () => {
    const { auth, clock } = await withBob();
    const { accessToken } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'ci' });

    expect(jwtPart(accessToken, 0)).toEqual({ alg: 'HS256' });
    const claims = jwtPart(accessToken, 1);
    expect(claims).toMatchObject({ ...goodClaims, sub: 'bob', iss: 'datahub-metadata-service' });
    expect(claims.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(claims.iat).toBe(Math.floor(clock.now() / 1000));

    const [header, payload, signature] = accessToken.split('.');
    const expected = createHmac('sha256', Buffer.from(SECRETS.signingKey, 'utf8')).update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
  });

  it('stores only the salted hash of the token, with its metadata', async () => {
    const { auth, db, clock } = await withBob();
    const { accessToken, id } = await auth.service.tokens.create({
      actorUrn: BOB,
      duration: 'ONE_HOUR',
      name: 'ci',
      description: 'nightly',
      ownerUrn: ROOT_ACTOR_URN,
    });

    expect(id).toBe(specHash(accessToken, SECRETS.salt));
    const rows = await db.all('SELECT * FROM access_tokens');
    expect(rows).toEqual([
      {
        id,
        name: 'ci',
        description: 'nightly',
        actor_urn: BOB,
        owner_urn: ROOT_ACTOR_URN,
        created_at: clock.now(),
        expires_at: clock.now() + HOUR,
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(accessToken.split('.')[2]);
  });

  it.each(Object.entries(DURATION_MS).filter(([, ms]) => ms !== null))('%s lasts %d ms', async (duration, ms) => {
    const { auth } = await withBob();
    const { accessToken, id } = await auth.service.tokens.create({ actorUrn: BOB, duration: duration as never, name: 'd' });
    const claims = jwtPart(accessToken, 1) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(ms! / 1000);
    const stored = (await auth.service.tokens.find(id))!;
    expect(stored.expiresAt! - stored.createdAt).toBe(ms);
  });

  it('maps durations as DataHub does (week 7 days, month 30, year 365)', () => {
    const day = 24 * HOUR;
    expect(DURATION_MS).toEqual({
      ONE_HOUR: HOUR,
      ONE_DAY: day,
      ONE_WEEK: 7 * day,
      ONE_MONTH: 30 * day,
      THREE_MONTHS: 90 * day,
      SIX_MONTHS: 180 * day,
      ONE_YEAR: 365 * day,
      NO_EXPIRY: null,
    });
  });

  it('refuses NO_EXPIRY unless allowed, naming the setting', async () => {
    const { auth } = await withBob();
    const attempt = auth.service.tokens.create({ actorUrn: BOB, duration: 'NO_EXPIRY', name: 'forever' });
    await expect(attempt).rejects.toThrow(ApiError);
    await expect(attempt).rejects.toMatchObject({ status: 400, message: expect.stringContaining('ACCESS_TOKEN_ALLOW_NO_EXPIRY=true') });
  });

  it('mints NO_EXPIRY without exp when allowed, and it keeps working', async () => {
    const { auth, clock } = await withBob({ allowNoExpiry: true });
    const { accessToken, id } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'NO_EXPIRY', name: 'forever' });
    expect(jwtPart(accessToken, 1)).not.toHaveProperty('exp');
    expect((await auth.service.tokens.find(id))?.expiresAt).toBeNull();
    clock.advance(10 * 365 * 24 * HOUR);
    expect(await auth.service.authenticate(bearer(accessToken))).toMatchObject({ urn: BOB });
  });

  it.each([
    ['a malformed actor urn', { actorUrn: 'bob' }, /actorUrn/],
    ['an unknown user', { actorUrn: 'urn:li:corpuser:nobody' }, /no user urn:li:corpuser:nobody exists/],
    ['the system actor', { actorUrn: 'urn:li:corpuser:__datahub_system' }, /system client/],
    ['a blank name', { name: '  ' }, /'name' must not be empty/],
    ['a huge name', { name: 'x'.repeat(201) }, /'name' must be at most 200/],
  ])('refuses %s with a 400', async (_case, override, message) => {
    const { auth, db } = await withBob();
    const attempt = auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'n', ...override });
    await expect(attempt).rejects.toMatchObject({ status: 400, message: expect.stringMatching(message) });
    expect(await db.get('SELECT count(*) AS n FROM access_tokens')).toEqual({ n: 0 });
  });
});

describe('verification', () => {
  it('accepts a stored token and resolves its user', async () => {
    const { auth } = await withBob();
    const { accessToken } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'ok' });
    const actor = await auth.service.authenticate(bearer(accessToken));
    expect(actor?.urn).toBe(BOB);
    // A Reader's privileges (DataHub's default policies; default-policies.test.ts compares them in full).
    expect(actor!.privileges).toEqual(privilegesOfRole(ROLE_URNS.Reader));
    expect(actor!.privileges.has(Privilege.VIEW_ENTITY_PAGE)).toBe(true);
    expect(actor!.privileges.has(Privilege.EDIT_ENTITY)).toBe(false);
    expect(await auth.service.authenticate(`bearer ${accessToken}`)).toMatchObject({ urn: BOB });
  });

  it('answers a token it has seen before synchronously, without a promise', async () => {
    const { auth } = await withBob();
    const { accessToken } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'sync' });
    expect(await auth.service.authenticate(bearer(accessToken))).toMatchObject({ urn: BOB });
    const again = auth.service.authenticate(bearer(accessToken));
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ urn: BOB });
  });

  it('accepts a correctly signed token stored by the server (the control for the refusals below)', async () => {
    const fixture = await withBob();
    const token = await craft(goodClaims);
    await storeAsIssued(fixture, token);
    expect(await fixture.auth.service.authenticate(bearer(token))).toMatchObject({ urn: BOB });
  });

  it('refuses alg none', async () => {
    const fixture = await withBob();
    const now = Math.floor(fixture.clock.now() / 1000);
    const token = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...goodClaims, sub: 'bob', iss: 'datahub-metadata-service', iat: now, exp: now + 3600 })}.`;
    await storeAsIssued(fixture, token);
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses RS256, even correctly signed with its own key', async () => {
    const fixture = await withBob();
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ ...goodClaims })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('bob')
      .setIssuer('datahub-metadata-service')
      .setExpirationTime('1h')
      .sign(privateKey);
    await storeAsIssued(fixture, token);
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses HS512 with the right key', async () => {
    const fixture = await withBob();
    const token = await new SignJWT({ ...goodClaims })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('bob')
      .setIssuer('datahub-metadata-service')
      .setExpirationTime(Math.floor(fixture.clock.now() / 1000) + 3600)
      .sign(new TextEncoder().encode(SECRETS.signingKey.repeat(2)));
    await storeAsIssued(fixture, token);
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses a token signed with another key', async () => {
    const fixture = await withBob();
    const token = await craft(goodClaims, 'another-signing-key-that-is-32-bytes-or-more');
    await storeAsIssued(fixture, token);
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses a tampered payload (a reader claiming to be the root user)', async () => {
    const fixture = await withBob();
    const { accessToken } = await fixture.auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'x' });
    const [header, , signature] = accessToken.split('.');
    const forged = `${header}.${b64url({ ...jwtPart(accessToken, 1), actorId: 'datahub', sub: 'datahub' })}.${signature}`;
    await storeAsIssued(fixture, forged, ROOT_ACTOR_URN);
    expect(await fixture.auth.service.authenticate(bearer(forged))).toBeNull();
  });

  it.each([
    ['version "1" (stateless)', { ...goodClaims, version: '1' }],
    ['version 2 as a number', { ...goodClaims, version: 2 }],
    ['no version', { type: 'PERSONAL', actorType: 'USER', actorId: 'bob' }],
    ['a SESSION token stored as a personal one', { ...goodClaims, type: 'SESSION' }],
    ['another token type', { ...goodClaims, type: 'PERSONAL_V3' }],
  ])('refuses %s', async (_case, claims) => {
    const fixture = await withBob();
    const token = await craft(claims);
    await storeAsIssued(fixture, token);
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses a token whose claims name another user than its stored row', async () => {
    const fixture = await withBob();
    const token = await craft({ ...goodClaims, actorId: 'datahub' });
    await storeAsIssued(fixture, token, BOB);
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses an expired token from the moment it expires', async () => {
    const { auth, clock } = await withBob();
    const { accessToken } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_HOUR', name: 'short' });
    clock.advance(HOUR - 1000);
    expect(await auth.service.authenticate(bearer(accessToken))).not.toBeNull();
    clock.advance(1000);
    expect(await auth.service.authenticate(bearer(accessToken))).toBeNull();
  });

  it('refuses a revoked token on the very next call, though its signature is cached', async () => {
    const { auth } = await withBob();
    const { accessToken, id } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'r' });
    expect(await auth.service.authenticate(bearer(accessToken))).not.toBeNull();
    await auth.service.tokens.revoke(id);
    expect(await auth.service.authenticate(bearer(accessToken))).toBeNull();
    await expect(auth.service.tokens.revoke(id)).rejects.toMatchObject({ status: 404, message: expect.stringContaining(id) });
  });

  it('refuses the token of a user that no longer exists', async () => {
    const { auth, db } = await withBob();
    const { accessToken } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'u' });
    expect(await auth.service.authenticate(bearer(accessToken))).not.toBeNull();
    await db.run('DELETE FROM users WHERE actor_urn = ?', [BOB]);
    expect(await auth.service.authenticate(bearer(accessToken))).toBeNull();
  });

  it('refuses a token revoked by another process (the CLI) on the very next call', async () => {
    const dir = tempDir();
    const { auth } = await withBob({ db: openTempDatabase(dir) });
    const { accessToken, id } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'cli' });
    expect(await auth.service.authenticate(bearer(accessToken))).not.toBeNull();
    await (await setup({ db: openTempDatabase(dir) })).auth.service.tokens.revoke(id);
    expect(await auth.service.authenticate(bearer(accessToken))).toBeNull();
  });

  it('refuses tokens signed before the signing key changed', async () => {
    const fixture = await withBob();
    const { accessToken } = await fixture.auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'k' });
    const { auth: rotated } = await setup({
      db: fixture.db,
      secrets: { ...SECRETS, signingKey: 'a-brand-new-signing-key-of-32-bytes-or-more' },
    });
    expect(await rotated.service.authenticate(bearer(accessToken))).toBeNull();
  });

  it('reads the scheme and the token around any spaces or tabs', async () => {
    const { auth } = await withBob();
    const { accessToken } = await auth.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'ws' });
    for (const header of [`Bearer  ${accessToken}`, ` \tBearer\t${accessToken} `, `BEARER ${accessToken}\t`]) {
      expect(await auth.service.authenticate(header)).toMatchObject({ urn: BOB });
    }
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Token abc', 'Bearer not.a.jwt', 'Bearer a b'])('refuses the header %j', async (header) => {
    const { auth } = await withBob();
    expect(await auth.service.authenticate(header)).toBeNull();
  });
});
