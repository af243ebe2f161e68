import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';

// DataHub's frontend (datahub-frontend's AuthenticationController and AuthServiceClient) signing users in against mds
// as its metadata service: every /auth/* call with the system client's Basic credentials, then the UI's GraphQL calls
// forwarded with the session token (AuthServiceController's endpoints; NativeUserService; InviteTokenService).
const SYSTEM_ID = '__datahub_system';
const SYSTEM_SECRET = 'frontend-system-secret-0123456789';
const DATAHUB_SECRET = 'secret-service-encryption-key';
const SYSTEM = `Basic ${SYSTEM_ID}:${SYSTEM_SECRET}`;
const ME = '{ me { corpUser { urn username } } }';

let mds: Mds;
beforeAll(async () => {
  mds = await startMds({
    DATAHUB_SYSTEM_CLIENT_ID: SYSTEM_ID,
    DATAHUB_SYSTEM_CLIENT_SECRET: SYSTEM_SECRET,
    SECRET_SERVICE_ENCRYPTION_KEY: DATAHUB_SECRET,
  });
});
afterAll(() => mds?.close());

/** What DataHub's AuthServiceClient sends: a JSON POST to the metadata service with the system client's credentials. */
const gms = (path: string, body: unknown, authorization: string | null = SYSTEM) =>
  apiClient(mds.url, authorization).post(`/auth/${path}`, body);

/**
 * DataHub's frontend's `/logIn`: verifyNativeUserCredentials, then generateSessionTokenForUser; its answer "Invalid
 * Credentials" (400) when the password does not match. Answers the session token.
 */
async function frontendLogIn(username: string, password: string): Promise<{ status: number; token?: string }> {
  const verified = await gms('verifyNativeUserCredentials', { userUrn: `urn:li:corpuser:${username}`, password });
  expect(verified.status).toBe(200);
  if (verified.body.doesPasswordMatch !== true) return { status: 400 };
  const session = await gms('generateSessionTokenForUser', { userId: username });
  expect(session.status).toBe(200);
  return { status: 200, token: session.body.accessToken };
}

/** The UI's own GraphQL document (its fragments resolved), as the frontend forwards it with the session token. */
const uiOperation = (name: string) => print(readUiDocuments().operations.find((op) => op.name === name)!.document);
const asSession = (token: string) => apiClient(mds.url, `Bearer ${token}`);

describe("DataHub's frontend signing in against mds's /auth endpoints", () => {
  it('signs up with an invite, signs in, calls GraphQL with the session token, resets the password, and signs out', async () => {
    // The admin's invite link (the UI's getInviteToken, with the role the page picks).
    const invite = await mds.graphql(uiOperation('getInviteToken'), { input: { roleUrn: 'urn:li:dataHubRole:Editor' } });
    expect(invite.body.errors).toBeUndefined();
    const inviteToken = invite.body.data.getInviteToken.inviteToken as string;

    // The frontend's /signUp: the user urn is the email.
    const signUp = await gms('signUp', {
      userUrn: 'urn:li:corpuser:new@example.com',
      fullName: 'New User',
      email: 'new@example.com',
      title: 'Analyst',
      password: 'first-password',
      inviteToken,
    });
    expect(signUp).toEqual({ status: 200, body: { isNativeUserCreated: true } });
    // What NativeUserService writes: corpUserInfo and corpUserStatus ACTIVE; the invite's role is given.
    const reader = mds.domains.entities.service.reader(undefined, { api: 'graphql' });
    const aspects = (
      await reader.latest(['urn:li:corpuser:new@example.com'], ['corpUserInfo', 'corpUserStatus', 'corpUserCredentials'])
    ).get('urn:li:corpuser:new@example.com');
    expect(aspects?.get('corpUserInfo')?.value).toEqual({
      fullName: 'New User',
      displayName: 'New User',
      email: 'new@example.com',
      title: 'Analyst',
      active: true,
    });
    expect(aspects?.get('corpUserStatus')?.value).toMatchObject({
      status: 'ACTIVE',
      lastModified: { actor: 'urn:li:corpuser:__datahub_system' },
    });
    expect(aspects?.has('corpUserCredentials')).toBe(false); // the password is never an aspect
    expect(await mds.domains.auth.service.roles.of('urn:li:corpuser:new@example.com')).toBe('urn:li:dataHubRole:Editor');
    // The same invite, again: the user exists.
    expect(
      (
        await gms('signUp', {
          userUrn: 'urn:li:corpuser:new@example.com',
          fullName: 'x',
          email: 'x',
          title: 'x',
          password: 'p',
          inviteToken,
        })
      ).status,
    ).toBe(400);

    const signedIn = await frontendLogIn('new@example.com', 'first-password');
    expect(signedIn.status).toBe(200);
    const me = await asSession(signedIn.token!).graphql(ME);
    expect(me.body.data.me.corpUser).toEqual({ urn: 'urn:li:corpuser:new@example.com', username: 'new@example.com' });
    expect((await frontendLogIn('new@example.com', 'wrong-password')).status).toBe(400);

    // The admin's reset link (the UI's createNativeUserResetToken), then the frontend's /resetNativeUserCredentials.
    const reset = await mds.graphql(uiOperation('createNativeUserResetToken'), { input: { userUrn: 'urn:li:corpuser:new@example.com' } });
    const resetToken = reset.body.data.createNativeUserResetToken.resetToken as string;
    const badReset = await gms('resetNativeUserCredentials', {
      userUrn: 'urn:li:corpuser:new@example.com',
      password: 'second',
      resetToken: 'nope',
    });
    expect(badReset.status).toBe(400);
    expect(badReset.body.message).toContain('Invalid reset token');
    expect(
      await gms('resetNativeUserCredentials', { userUrn: 'urn:li:corpuser:new@example.com', password: 'second-password', resetToken }),
    ).toEqual({ status: 200, body: { areNativeUserCredentialsReset: true } });
    expect((await frontendLogIn('new@example.com', 'first-password')).status).toBe(400);
    expect((await frontendLogIn('new@example.com', 'second-password')).status).toBe(200);

    // Signing out revokes the session: the token stops working at once.
    expect(await mds.domains.auth.service.credentials.revokeSession(signedIn.token!)).toBe(true);
    expect((await asSession(signedIn.token!).graphql(ME)).status).toBe(401);
  });

  it('refuses a suspended user with the right password', async () => {
    const invite = await mds.domains.auth.service.credentials.inviteToken(null, false);
    const userUrn = 'urn:li:corpuser:sus@example.com';
    await gms('signUp', { userUrn, fullName: 'S', email: 'sus@example.com', title: 'T', password: 'pw-sus', inviteToken: invite });
    expect((await frontendLogIn('sus@example.com', 'pw-sus')).status).toBe(200);
    const proposal = {
      entityType: 'corpuser',
      entityUrn: userUrn,
      changeType: 'UPSERT',
      aspectName: 'corpUserStatus',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({ status: 'SUSPENDED', lastModified: { actor: 'urn:li:corpuser:datahub', time: 1 } }),
      },
    };
    expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);
    expect(await gms('verifyNativeUserCredentials', { userUrn, password: 'pw-sus' })).toEqual({
      status: 200,
      body: { doesPasswordMatch: false },
    });
  });

  it('signs in a user whose credential a DataHub database holds (computed as DataHub does), and re-hashes it', async () => {
    const userUrn = 'urn:li:corpuser:migrated';
    // NativeUserService: 16 salt bytes; hashedPassword = base64(sha256(salt ++ password)); the salt's base64 encrypted by
    // SecretService (v2: AES-256-GCM under HMAC-SHA256(sha256(secret), "DataHub-AES-GCM-Key"), iv ++ ciphertext ++ tag).
    const salt = randomBytes(16);
    const key = createHmac('sha256', createHash('sha256').update(DATAHUB_SECRET).digest()).update('DataHub-AES-GCM-Key').digest();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const encrypted = Buffer.concat([cipher.update(salt.toString('base64')), cipher.final()]);
    const credential = {
      salt: `v2:${Buffer.concat([iv, encrypted, cipher.getAuthTag()]).toString('base64')}`,
      hashedPassword: createHash('sha256')
        .update(Buffer.concat([salt, Buffer.from('datahub-era password')]))
        .digest('base64'),
    };
    const proposal = {
      entityType: 'corpuser',
      entityUrn: userUrn,
      changeType: 'UPSERT',
      aspectName: 'corpUserCredentials',
      aspect: { contentType: 'application/json', value: JSON.stringify(credential) },
    };
    expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);

    expect((await frontendLogIn('migrated', 'not it')).status).toBe(400);
    const signedIn = await frontendLogIn('migrated', 'datahub-era password');
    expect(signedIn.status).toBe(200);
    expect((await asSession(signedIn.token!).graphql(ME)).body.data.me.corpUser.urn).toBe(userUrn);
    // Re-hashed: DataHub's aspect is gone, and the password still signs in (now from mds's scrypt hash).
    const reader = mds.domains.entities.service.reader(undefined, { api: 'graphql' });
    expect((await reader.latest([userUrn], ['corpUserCredentials'])).get(userUrn)?.has('corpUserCredentials') ?? false).toBe(false);
    expect((await frontendLogIn('migrated', 'datahub-era password')).status).toBe(200);
  });

  it('stores the usage events the frontend posts to /auth/track (AuthServiceController.track), as /openapi/v1/tracking/track does', async () => {
    const store = mds.domains.analytics.service.store;
    const since = Date.now();
    const event = {
      type: 'EntityViewEvent',
      entityType: 'DATASET',
      entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      browserId: 'b1',
    };
    const posted = await gms('track', { ...event, actorUrn: 'urn:li:corpuser:tracked' });
    expect([posted.status, posted.body]).toEqual([200, undefined]);
    expect(await gms('track', { type: 'PageViewEvent' })).toEqual({ status: 200, body: undefined }); // no user named: the system client's
    const stored = await store.groups({ window: { start: since, end: Date.now() } }, 'actor_urn', {
      limit: 10,
      missing: true,
      second: 'entity_urn',
    });
    expect(stored).toEqual([
      { key: 'urn:li:corpuser:__datahub_system', second: null, count: 1 },
      { key: 'urn:li:corpuser:tracked', second: event.entityUrn, count: 1 },
    ]);
    // The tracking endpoint's validation, and only for the system client.
    expect((await gms('track', {})).body.message).toBe('The tracking event has no "type" (the event type name, e.g. "PageViewEvent")');
    expect((await gms('track', { type: 'PageViewEvent', entityUrn: 7 })).body.message).toBe(
      'The tracking event\'s "entityUrn" must be a string, not number',
    );
    expect((await gms('track', { type: 'PageViewEvent', padding: 'x'.repeat(20_000) })).status).toBe(400);
    const user = await mds.tokenFor('urn:li:corpuser:tracker', null);
    expect((await gms('track', { type: 'PageViewEvent' }, `Bearer ${user}`)).status).toBe(401);
    expect((await store.count({ window: { start: since, end: Date.now() } })).events).toBe(2);
  });

  it('answers only the system client, with DataHub bodies for the rest of /auth', async () => {
    const user = await mds.tokenFor('urn:li:corpuser:someone', 'urn:li:dataHubRole:Admin');
    const asUser = await gms('generateSessionTokenForUser', { userId: 'datahub' }, `Bearer ${user}`);
    expect(asUser.status).toBe(401);
    expect(asUser.body.message).toBe('urn:li:corpuser:someone unauthorized to perform this action.');
    expect((await gms('verifyNativeUserCredentials', { userUrn: 'urn:li:corpuser:datahub', password: 'x' }, null)).status).toBe(401);
    expect((await gms('generateSessionTokenForUser', {})).status).toBe(400);
    expect((await gms('generateSessionTokenForUser', { userId: 7 })).body.message).toContain("'userId'");
    expect((await gms('signUp', { userUrn: 'urn:li:corpuser:x' })).body.message).toContain("'fullName'");
    expect(await gms('getSsoSettings', {})).toEqual({ status: 404, body: undefined });
    // Also through the frontend's /api/gms prefix.
    expect(
      (
        await apiClient(mds.url, SYSTEM).post('/api/gms/auth/verifyNativeUserCredentials', {
          userUrn: 'urn:li:corpuser:nobody',
          password: 'x',
        })
      ).body,
    ).toEqual({
      doesPasswordMatch: false,
    });
  });
});

describe("mds's own sign-in routes (DataHub's frontend's /logIn, /signUp, /resetNativeUserCredentials)", () => {
  /** A browser's JSON POST from the page; answers status, body text and the Set-Cookie lines. */
  const browserPost = async (path: string, body: unknown, contentType = 'application/json') => {
    const res = await fetch(mds.url + path, { method: 'POST', headers: { 'content-type': contentType }, body: JSON.stringify(body) });
    return { status: res.status, text: await res.text(), cookies: res.headers.getSetCookie() };
  };
  /** The cookies' values by name. */
  const cookieValues = (lines: string[]) => new Map(lines.map((line) => line.split(';')[0]!.split('=') as [string, string]));

  it('signs in with the session and actor cookies, refuses a wrong password with DataHub texts, and refuses form posts', async () => {
    await mds.domains.auth.service.credentials.setPassword('urn:li:corpuser:datahub', 'root-password');
    const wrong = await browserPost('/logIn', { username: 'datahub', password: 'nope' });
    expect([wrong.status, JSON.parse(wrong.text), wrong.cookies]).toEqual([400, { message: 'Invalid Credentials' }, []]);
    const blank = await browserPost('/logIn', { username: ' ', password: 'x' });
    expect([blank.status, JSON.parse(blank.text)]).toEqual([400, { message: 'User name must not be empty.' }]);
    expect((await browserPost('/logIn', { username: 'datahub', password: 'root-password' }, 'text/plain')).status).toBe(415);

    const ok = await browserPost('/logIn', { username: 'datahub', password: 'root-password' });
    expect(ok.status).toBe(200);
    const [actorLine, sessionLine] = ok.cookies;
    expect(actorLine).toMatch(/^actor=urn:li:corpuser:datahub; Path=\/; Max-Age=86400; SameSite=Lax$/);
    expect(sessionLine).toMatch(/^PLAY_SESSION=[^;]+; Path=\/; Max-Age=86400; SameSite=Lax; HttpOnly$/);
    const token = cookieValues(ok.cookies).get('PLAY_SESSION')!;
    expect((await asSession(token).graphql(ME)).body.data.me.corpUser.urn).toBe('urn:li:corpuser:datahub');

    // The page's own calls carry the cookies; signing out (/logOut) revokes the session token itself.
    const cookie = ok.cookies.map((line) => line.split(';')[0]).join('; ');
    const pageGraphql = () =>
      fetch(`${mds.url}/api/v2/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: mds.url, 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ query: ME }),
      });
    const signedIn = await pageGraphql();
    expect([signedIn.status, ((await signedIn.json()) as { data: { me: { corpUser: { urn: string } } } }).data.me.corpUser.urn]).toEqual([
      200,
      'urn:li:corpuser:datahub',
    ]);
    const logOut = await fetch(`${mds.url}/logOut`, { headers: { cookie }, redirect: 'manual' });
    expect(logOut.status).toBeGreaterThanOrEqual(300);
    expect((await pageGraphql()).status).toBe(401);
    expect((await asSession(token).graphql(ME)).status).toBe(401);
  });

  it('signs up with an invite and resets a password, each starting a session', async () => {
    const inviteToken = await mds.domains.auth.service.credentials.inviteToken('urn:li:dataHubRole:Reader', false);
    const fields = { fullName: 'Pat', email: 'pat@example.com', title: 'PM', password: 'pat-1', inviteToken };
    const missing = await browserPost('/signUp', { ...fields, title: '' });
    expect([missing.status, JSON.parse(missing.text)]).toEqual([400, { message: 'Title must not be empty.' }]);
    const badInvite = await browserPost('/signUp', { ...fields, inviteToken: 'wrong' });
    expect(badInvite.status).toBe(400);
    expect(JSON.parse(badInvite.text).message).toContain('Invalid invite token');

    const signedUp = await browserPost('/signUp', fields);
    expect(signedUp.status).toBe(200);
    expect(cookieValues(signedUp.cookies).get('actor')).toBe('urn:li:corpuser:pat@example.com');
    expect(await mds.domains.auth.service.roles.of('urn:li:corpuser:pat@example.com')).toBe('urn:li:dataHubRole:Reader');

    const resetToken = await mds.domains.auth.service.credentials.createResetToken('urn:li:corpuser:pat@example.com');
    const wrongToken = await browserPost('/resetNativeUserCredentials', { email: 'pat@example.com', password: 'pat-2', resetToken: 'x' });
    expect(wrongToken.status).toBe(400);
    const reset = await browserPost('/resetNativeUserCredentials', { email: 'pat@example.com', password: 'pat-2', resetToken });
    expect(reset.status).toBe(200);
    const token = cookieValues(reset.cookies).get('PLAY_SESSION')!;
    expect((await asSession(token).graphql(ME)).body.data.me.corpUser.urn).toBe('urn:li:corpuser:pat@example.com');
    expect((await browserPost('/logIn', { username: 'pat@example.com', password: 'pat-1' })).status).toBe(400);
    expect((await browserPost('/logIn', { username: 'pat@example.com', password: 'pat-2' })).status).toBe(200);
  });
});
