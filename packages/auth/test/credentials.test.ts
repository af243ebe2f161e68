import { buildApiSchema, type ApiContext } from '@mds/schema';
import { graphql } from 'graphql';
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ROLE_URNS, ROOT_ACTOR_URN, type UserDirectory } from '../src/index';
import { bearer, jwtPart, setup } from './helpers';

const ALICE = 'urn:li:corpuser:alice@example.com';
const DATAHUB_SECRET = 'the-datahub-secret-service-key';
const FAST = { N: 1024, r: 8, p: 1 };
const DAY = 86_400_000;

/**
 * A DataHub `corpUserCredentials` value computed as DataHub's NativeUserService computes it (16 random salt bytes;
 * hashedPassword = base64(sha256(salt ++ password)); salt stored as SecretService.encrypt(base64(salt)): `v2:` AES-256-GCM
 * under HMAC-SHA256(sha256(secret), "DataHub-AES-GCM-Key"), or the legacy AES-128-ECB under sha1(secret)[0..16]).
 */
function datahubCredential(password: string, format: 'v2' | 'legacy' = 'v2') {
  const salt = randomBytes(16);
  const plain = Buffer.from(salt.toString('base64'), 'utf8');
  let encrypted: string;
  if (format === 'v2') {
    const key = createHmac('sha256', createHash('sha256').update(DATAHUB_SECRET).digest()).update('DataHub-AES-GCM-Key').digest();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    encrypted = `v2:${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64')}`;
  } else {
    const key = createHash('sha1').update(DATAHUB_SECRET).digest().subarray(0, 16);
    const cipher = createCipheriv('aes-128-ecb', key, null);
    encrypted = Buffer.concat([cipher.update(plain), cipher.final()]).toString('base64');
  }
  const hashedPassword = createHash('sha256')
    .update(Buffer.concat([salt, Buffer.from(password, 'utf8')]))
    .digest('base64');
  return { salt: encrypted, hashedPassword };
}

/** The users' entities, in memory: what the host's entity-service adapter answers. */
function memoryDirectory() {
  const users = new Map<string, { info?: Record<string, unknown>; status?: string; removed?: boolean }>();
  const datahub = new Map<string, { salt: string; hashedPassword: string }>();
  const directory: UserDirectory = {
    exists: async (urn) => users.has(urn) || datahub.has(urn),
    isActive: async (urn) => users.get(urn)?.status !== 'SUSPENDED' && users.get(urn)?.removed !== true,
    createNativeUser: async (urn, info) => void users.set(urn, { info: { ...info }, status: 'ACTIVE' }),
    datahubCredentials: async (urn) => datahub.get(urn),
    forgetDatahubCredentials: async (urn) => void datahub.delete(urn),
  };
  return { directory, users, datahub };
}

async function fixture() {
  const base = await setup({ scryptCost: FAST, datahubSecret: DATAHUB_SECRET });
  const memory = memoryDirectory();
  const native = base.auth.service.credentials.nativeUsers(memory.directory);
  const storedHash = async (urn: string) =>
    (await base.db.get<{ h: string }>('SELECT password_hash AS h FROM native_credentials WHERE actor_urn = ?', [urn]))?.h;
  return { ...base, ...memory, native, storedHash };
}

describe('native passwords', () => {
  it('stores a new password as scrypt with its parameters, never in clear, and verifies only that password', async () => {
    const f = await fixture();
    await f.auth.service.credentials.setPassword(ALICE, 'correct horse');
    const stored = await f.storedHash(ALICE);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('correct horse');
    expect(await f.native.verify(ALICE, 'correct horse')).toBe(true);
    expect(await f.native.verify(ALICE, 'correct horsE')).toBe(false);
    expect(await f.native.verify(ALICE, '')).toBe(false);
    expect(await f.native.verify('urn:li:corpuser:nobody', 'correct horse')).toBe(false);
  });

  it('uses scrypt N=2^15, r=8, p=1 by default', async () => {
    const base = await setup();
    await base.auth.service.credentials.setPassword(ALICE, 'pw');
    const row = await base.db.get<{ h: string }>('SELECT password_hash AS h FROM native_credentials WHERE actor_urn = ?', [ALICE]);
    expect(row?.h.split('$').slice(0, 4)).toEqual(['scrypt', '32768', '8', '1']);
  });

  it.each(['v2', 'legacy'] as const)(
    'signs in a DataHub-format credential (%s salt encryption) and re-hashes it to scrypt',
    async (format) => {
      const f = await fixture();
      f.datahub.set(ALICE, datahubCredential('from datahub', format));
      expect(await f.native.verify(ALICE, 'wrong')).toBe(false);
      expect(f.datahub.has(ALICE)).toBe(true); // a failed attempt changes nothing
      expect(await f.native.verify(ALICE, 'from datahub')).toBe(true);
      expect(await f.storedHash(ALICE)).toMatch(/^scrypt\$/);
      expect(f.datahub.has(ALICE)).toBe(false); // DataHub's aspect is gone once the password moved
      expect(await f.native.verify(ALICE, 'from datahub')).toBe(true);
    },
  );

  it('refuses a DataHub credential without the secret it was encrypted with', async () => {
    const base = await setup({ scryptCost: FAST, datahubSecret: 'another secret' });
    const memory = memoryDirectory();
    memory.datahub.set(ALICE, datahubCredential('from datahub'));
    expect(await base.auth.service.credentials.nativeUsers(memory.directory).verify(ALICE, 'from datahub')).toBe(false);
    const none = await setup({ scryptCost: FAST });
    expect(await none.auth.service.credentials.nativeUsers(memory.directory).verify(ALICE, 'from datahub')).toBe(false);
  });

  it('refuses a suspended or removed user with the right password', async () => {
    const f = await fixture();
    await f.auth.service.credentials.setPassword(ALICE, 'pw');
    f.users.set(ALICE, { status: 'SUSPENDED' });
    expect(await f.native.verify(ALICE, 'pw')).toBe(false);
    f.users.set(ALICE, { status: 'ACTIVE', removed: true });
    expect(await f.native.verify(ALICE, 'pw')).toBe(false);
    f.users.set(ALICE, { status: 'ACTIVE' });
    expect(await f.native.verify(ALICE, 'pw')).toBe(true);
  });

  it("generates the root user's first password once per database", async () => {
    const f = await fixture();
    const password = await f.auth.service.credentials.claimRootPassword();
    expect(password).toMatch(/^[a-z]{24}$/);
    expect(await f.auth.service.credentials.claimRootPassword()).toBeUndefined();
    expect(await f.native.verify(ROOT_ACTOR_URN, password!)).toBe(true);
  });
});

describe('sign-up with an invite token, and password reset', () => {
  const signUp = (inviteToken: string, extra: Record<string, string> = {}) => ({
    userUrn: ALICE,
    fullName: 'Alice A',
    email: 'alice@example.com',
    title: 'Engineer',
    password: 'first password',
    inviteToken,
    ...extra,
  });

  it("creates the user with the invite's role, its info and status, and a password that signs in", async () => {
    const f = await fixture();
    const invite = await f.auth.service.credentials.inviteToken(ROLE_URNS.Editor, false);
    expect(invite).toMatch(/^[a-z]{32}$/);
    expect(await f.auth.service.credentials.inviteToken(ROLE_URNS.Editor, false)).toBe(invite); // the same until regenerated
    await f.native.signUp(signUp(invite));
    expect(f.users.get(ALICE)).toEqual({
      info: { fullName: 'Alice A', email: 'alice@example.com', title: 'Engineer' },
      status: 'ACTIVE',
    });
    expect(await f.auth.service.roles.of(ALICE)).toBe(ROLE_URNS.Editor);
    expect(await f.native.verify(ALICE, 'first password')).toBe(true);
    await expect(f.native.signUp(signUp(invite))).rejects.toMatchObject({
      status: 400,
      message: 'This user already exists! Cannot create a new user.',
    });
  });

  it('refuses an unknown or replaced invite token, and the reserved users', async () => {
    const f = await fixture();
    const old = await f.auth.service.credentials.inviteToken(null, false);
    const fresh = await f.auth.service.credentials.inviteToken(null, true);
    expect(fresh).not.toBe(old);
    await expect(f.native.signUp(signUp(old))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Invalid invite token'),
    });
    await expect(f.native.signUp(signUp('nope'))).rejects.toMatchObject({ status: 400 });
    await expect(f.native.signUp(signUp(fresh, { userUrn: ROOT_ACTOR_URN }))).rejects.toMatchObject({ status: 400 });
    await expect(f.native.signUp(signUp(fresh, { password: '' }))).rejects.toMatchObject({
      status: 400,
      message: 'Password must not be empty.',
    });
    expect(f.users.size).toBe(0);
    await f.native.signUp(signUp(fresh));
    expect(await f.auth.service.roles.of(ALICE)).toBeNull();
  });

  it('resets a password with a one-day reset token, refusing a wrong or expired one', async () => {
    const f = await fixture();
    await f.auth.service.credentials.setPassword(ALICE, 'old');
    await expect(f.native.reset(ALICE, 'new', 'x')).rejects.toMatchObject({ message: 'User has not generated a password reset token!' });
    const token = await f.auth.service.credentials.createResetToken(ALICE);
    await expect(f.native.reset(ALICE, 'new', 'wrong')).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Invalid reset token'),
    });
    await f.native.reset(ALICE, 'new', token);
    expect(await f.native.verify(ALICE, 'new')).toBe(true);
    expect(await f.native.verify(ALICE, 'old')).toBe(false);
    await expect(f.native.reset(ALICE, 'newer', token)).rejects.toMatchObject({ status: 400 }); // used once

    const second = await f.auth.service.credentials.createResetToken(ALICE);
    f.clock.advance(DAY + 1);
    await expect(f.native.reset(ALICE, 'newer', second)).rejects.toMatchObject({
      message: expect.stringContaining('Reset token has expired'),
    });
    await expect(f.auth.service.credentials.createResetToken('urn:li:corpuser:ingested')).rejects.toMatchObject({ status: 400 });
  });
});

describe('session tokens', () => {
  it("are DataHub's SESSION tokens of a day, authenticate as the user, and stop working once revoked", async () => {
    const f = await fixture();
    const token = await f.auth.service.credentials.createSession('alice@example.com');
    expect(jwtPart(token, 1)).toMatchObject({
      type: 'SESSION',
      version: '2',
      actorType: 'USER',
      actorId: 'alice@example.com',
      sub: 'alice@example.com',
    });
    const claims = jwtPart(token, 1) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(86_400);
    const actor = await f.auth.service.authenticate(bearer(token));
    expect(actor?.urn).toBe(ALICE);
    expect((await f.auth.service.tokens.list()).tokens).toEqual([]); // not an access token
    expect(await f.auth.service.credentials.revokeSession(token)).toBe(true);
    expect(await f.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('expire after their lifetime', async () => {
    const f = await fixture();
    const token = await f.auth.service.credentials.createSession('alice@example.com');
    f.clock.advance(DAY);
    expect(await f.auth.service.authenticate(bearer(token))).toBeNull();
  });
});

describe('GraphQL: invite and reset tokens (DataHub: GetInviteTokenResolver, CreateInviteTokenResolver, CreateNativeUserResetTokenResolver)', () => {
  const GET = 'query($input: GetInviteTokenInput!) { getInviteToken(input: $input) { inviteToken } }';
  const CREATE = 'mutation($input: CreateInviteTokenInput!) { createInviteToken(input: $input) { inviteToken } }';
  const RESET = 'mutation($input: CreateNativeUserResetTokenInput!) { createNativeUserResetToken(input: $input) { resetToken } }';

  it('answers an Admin and refuses a Reader with DataHub texts', async () => {
    const f = await fixture();
    const schema = buildApiSchema([f.auth.module]);
    await f.auth.service.roles.assign(ROLE_URNS.Reader, ['urn:li:corpuser:rita']);
    const as = async (urn: string): Promise<ApiContext> => {
      const { accessToken } = await f.auth.service.tokens.create({ actorUrn: urn, duration: 'ONE_DAY', name: 't' });
      return { actor: (await f.auth.service.authenticate(bearer(accessToken)))!, requestId: 'test' };
    };
    const admin = await as(ROOT_ACTOR_URN);
    const reader = await as('urn:li:corpuser:rita');
    const run = (source: string, input: Record<string, unknown>, contextValue: ApiContext) =>
      graphql({ schema, source, variableValues: { input }, contextValue });

    const got = await run(GET, { roleUrn: ROLE_URNS.Reader }, admin);
    const token = (got.data?.getInviteToken as { inviteToken: string }).inviteToken;
    expect(token).toBe(await f.auth.service.credentials.inviteToken(ROLE_URNS.Reader, false));
    const created = await run(CREATE, { roleUrn: ROLE_URNS.Reader }, admin);
    expect((created.data?.createInviteToken as { inviteToken: string }).inviteToken).not.toBe(token);
    expect((await run(GET, { roleUrn: 'urn:li:dataHubRole:Nope' }, admin)).errors?.[0]?.extensions).toMatchObject({ code: 400 });

    expect((await run(GET, {}, reader)).errors?.[0]?.message).toBe(
      'Unauthorized to get invite tokens. Please contact your DataHub administrator if this needs corrective action.',
    );
    expect((await run(CREATE, {}, reader)).errors?.[0]?.message).toBe(
      'Unauthorized to create invite tokens. Please contact your DataHub administrator if this needs corrective action.',
    );

    await f.auth.service.credentials.setPassword(ALICE, 'pw');
    const reset = await run(RESET, { userUrn: ALICE }, admin);
    const resetToken = (reset.data?.createNativeUserResetToken as { resetToken: string }).resetToken;
    await f.native.reset(ALICE, 'pw2', resetToken);
    expect(await f.native.verify(ALICE, 'pw2')).toBe(true);
    expect((await run(RESET, { userUrn: ALICE }, reader)).errors?.[0]).toMatchObject({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      extensions: { code: 403 },
    });
  });
});
