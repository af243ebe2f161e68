import type { SqlDatabase } from '@mds/db';
import type { TestSqlDatabases } from '@mds/db/testing';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, Privilege, ROLE_URNS, ROOT_ACTOR_URN, type Auth } from '../src/index';
import { bearer, SECRETS, SYSTEM_CLIENT, testClock } from './helpers';

const BOB = 'urn:li:corpuser:bob';
const EVE = 'urn:li:corpuser:eve';
const HOUR = 3_600_000;

/** A migrations folder holding only the first migration: a database as the previous release of mds left it. */
function previousReleaseMigrations(dialect: SqlDatabase['dialect']): string {
  const source = fileURLToPath(new URL(`../migrations/${dialect}`, import.meta.url));
  const folder = mkdtempSync(join(tmpdir(), 'mds-auth-previous-'));
  mkdirSync(join(folder, 'meta'));
  copyFileSync(join(source, '0000_init.sql'), join(folder, '0000_init.sql'));
  const journal = JSON.parse(readFileSync(join(source, 'meta/_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  writeFileSync(
    join(folder, 'meta/_journal.json'),
    JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.tag === '0000_init') }),
  );
  return folder;
}

/**
 * What auth promises on every dialect of the storage port: `databases` gives fresh databases and second handles on
 * them, as a second replica (or the CLI) has.
 */
export function describeAuthContract(name: string, databases: Pick<TestSqlDatabases, 'open' | 'openAgain'>) {
  const folders: string[] = [];
  afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

  /** Auth on `db`, with a clock shared by every replica of the test. */
  const authOn = (db: SqlDatabase, clock: ReturnType<typeof testClock>, options: { allowNoExpiry?: boolean } = {}) =>
    createAuth({ db, secrets: SECRETS, systemClient: SYSTEM_CLIENT, now: clock.now, ...options });

  /** `count` replicas on one fresh database, started one after another. */
  async function replicas(count: number, options: { allowNoExpiry?: boolean } = {}) {
    const clock = testClock();
    const first = await databases.open();
    const handles = [first, ...(await Promise.all(Array.from({ length: count - 1 }, () => databases.openAgain(first))))];
    const auths: Auth[] = [];
    for (const db of handles) auths.push(await authOn(db, clock, options));
    return { auths, handles, clock };
  }

  const privilegesOf = async (auth: Auth, token: string) => (await auth.service.authenticate(bearer(token)))?.privileges;

  describe(`auth: ${name}`, () => {
    describe('first start', () => {
      it('seeds the root user as Admin; only the first createAuth on a database is its first start', async () => {
        const { auths } = await replicas(2);
        expect(auths.map((auth) => auth.isFirstStart)).toEqual([true, false]);
        expect(await auths[1]!.service.roles.of(ROOT_ACTOR_URN)).toBe(ROLE_URNS.Admin);
      });

      it('is the first start of exactly one of six replicas starting together on an empty database', async () => {
        const clock = testClock();
        const first = await databases.open();
        const handles = [first, ...(await Promise.all(Array.from({ length: 5 }, () => databases.openAgain(first))))];
        const auths = await Promise.all(handles.map((db) => authOn(db, clock)));
        expect(auths.filter((auth) => auth.isFirstStart)).toHaveLength(1);
        expect((await authOn(await databases.openAgain(first), clock)).isFirstStart).toBe(false);
      });

      it('is not the first start of a database the previous release already used', async () => {
        const db = await databases.open();
        const folder = previousReleaseMigrations(db.dialect);
        folders.push(folder);
        await db.migrate({ owner: 'auth', folder });
        await db.run('INSERT INTO users (actor_urn, role_urn, created_at) VALUES (?, ?, ?)', [BOB, ROLE_URNS.Reader, 1]);
        const auth = await authOn(db, testClock());
        expect(auth.isFirstStart).toBe(false);
        expect(await auth.service.roles.of(BOB)).toBe(ROLE_URNS.Reader);
        expect(await auth.service.roles.of(ROOT_ACTOR_URN)).toBe(ROLE_URNS.Admin);
      });

      it('is the first start of a database the previous release left with no token and no user but root', async () => {
        const db = await databases.open();
        const folder = previousReleaseMigrations(db.dialect);
        folders.push(folder);
        await db.migrate({ owner: 'auth', folder });
        expect((await authOn(db, testClock())).isFirstStart).toBe(true);
      });
    });

    describe('tokens', () => {
      it('creates, finds, lists and revokes tokens; a second revoke answers 404', async () => {
        const {
          auths: [auth],
        } = await replicas(1);
        await auth!.service.roles.assign(ROLE_URNS.Reader, [BOB]);
        const { accessToken, id, metadata } = await auth!.service.tokens.create({
          actorUrn: BOB,
          duration: 'ONE_DAY',
          name: 'ci',
          description: 'nightly',
          ownerUrn: ROOT_ACTOR_URN,
        });
        expect(metadata).toMatchObject({ id, name: 'ci', description: 'nightly', actorUrn: BOB, ownerUrn: ROOT_ACTOR_URN });
        expect(metadata.expiresAt! - metadata.createdAt).toBe(24 * HOUR);
        expect(await auth!.service.tokens.find(id)).toEqual(metadata);
        expect(await auth!.service.tokens.list()).toEqual({ start: 0, count: 1, total: 1, tokens: [metadata] });
        expect((await auth!.service.authenticate(bearer(accessToken)))?.urn).toBe(BOB);

        await auth!.service.tokens.revoke(id);
        expect(await auth!.service.tokens.find(id)).toBeUndefined();
        expect((await auth!.service.tokens.list()).total).toBe(0);
        await expect(auth!.service.tokens.revoke(id)).rejects.toMatchObject({ status: 404, message: expect.stringContaining(id) });
      });

      it('lists newest expiry first and never-expiring last, filters by owner and actor (negated too), and pages', async () => {
        const {
          auths: [auth],
          clock,
        } = await replicas(1, { allowNoExpiry: true });
        await auth!.service.roles.assign(ROLE_URNS.Reader, [BOB, EVE]);
        const mint = async (actorUrn: string, duration: 'ONE_HOUR' | 'ONE_WEEK' | 'NO_EXPIRY', name: string) => {
          clock.advance(1000);
          return (await auth!.service.tokens.create({ actorUrn, duration, name })).metadata;
        };
        const hour = await mint(BOB, 'ONE_HOUR', 'hour');
        const forever = await mint(BOB, 'NO_EXPIRY', 'forever');
        const week = await mint(EVE, 'ONE_WEEK', 'week');
        const laterForever = await mint(EVE, 'NO_EXPIRY', 'later forever');

        expect((await auth!.service.tokens.list()).tokens.map((t) => t.name)).toEqual(
          [week, hour, laterForever, forever].map((t) => t.name),
        );
        const names = async (filters: { field: 'ownerUrn' | 'actorUrn'; values: string[]; negated: boolean }[]) =>
          (await auth!.service.tokens.list({ filters })).tokens.map((t) => t.name);
        expect(await names([{ field: 'actorUrn', values: [BOB], negated: false }])).toEqual(['hour', 'forever']);
        expect(await names([{ field: 'ownerUrn', values: [BOB], negated: true }])).toEqual(['week', 'later forever']);
        expect(
          await names([
            { field: 'ownerUrn', values: [BOB, EVE], negated: false },
            { field: 'actorUrn', values: [EVE], negated: true },
          ]),
        ).toEqual(['hour', 'forever']);
        expect(await auth!.service.tokens.list({ start: 1, count: 2 })).toMatchObject({
          start: 1,
          count: 2,
          total: 4,
          tokens: [hour, laterForever],
        });
      });
    });

    describe('roles', () => {
      it('assigns roles (creating users), removes them with null, and answers undefined for an unknown user', async () => {
        const {
          auths: [auth],
        } = await replicas(1);
        expect(await auth!.service.roles.of(BOB)).toBeUndefined();
        await auth!.service.roles.assign(ROLE_URNS.Editor, [BOB, EVE, BOB]);
        expect([await auth!.service.roles.of(BOB), await auth!.service.roles.of(EVE)]).toEqual([ROLE_URNS.Editor, ROLE_URNS.Editor]);
        await auth!.service.roles.assign(null, [EVE]);
        expect([await auth!.service.roles.of(BOB), await auth!.service.roles.of(EVE)]).toEqual([ROLE_URNS.Editor, null]);
      });

      it('writes nothing of an assignment naming one invalid user', async () => {
        const {
          auths: [auth],
        } = await replicas(1);
        await expect(auth!.service.roles.assign(ROLE_URNS.Admin, [BOB, 'eve'])).rejects.toMatchObject({ status: 400 });
        expect(await auth!.service.roles.of(BOB)).toBeUndefined();
      });
    });

    describe('replicas share one truth', () => {
      it('accepts on one replica a token minted on another, and keeps it across a restart', async () => {
        const {
          auths: [a, b],
          handles,
        } = await replicas(2);
        await a!.service.roles.assign(ROLE_URNS.Reader, [BOB]);
        const { accessToken } = await a!.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'shared' });
        expect((await b!.service.authenticate(bearer(accessToken)))?.urn).toBe(BOB);

        const restarted = await authOn(await databases.openAgain(handles[0]!), testClock());
        expect((await restarted.service.authenticate(bearer(accessToken)))?.urn).toBe(BOB);
      });

      it('refuses a token revoked on another replica on the very next request', async () => {
        const {
          auths: [a, b],
        } = await replicas(2);
        await a!.service.roles.assign(ROLE_URNS.Reader, [BOB]);
        const { accessToken, id } = await a!.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'revoked' });
        for (let i = 0; i < 3; i++) expect((await b!.service.authenticate(bearer(accessToken)))?.urn).toBe(BOB); // known and warm on b
        await a!.service.tokens.revoke(id);
        expect(await b!.service.authenticate(bearer(accessToken))).toBeNull();
        expect(await a!.service.authenticate(bearer(accessToken))).toBeNull();
      });

      it('applies a role change made on another replica to the very next request', async () => {
        const {
          auths: [a, b],
        } = await replicas(2);
        await a!.service.roles.assign(ROLE_URNS.Reader, [BOB]);
        const { accessToken } = await a!.service.tokens.create({ actorUrn: BOB, duration: 'ONE_DAY', name: 'role' });
        expect((await privilegesOf(b!, accessToken))?.has(Privilege.MANAGE_TAGS)).toBe(false);
        expect((await privilegesOf(b!, accessToken))?.has(Privilege.MANAGE_TAGS)).toBe(false);

        await a!.service.roles.assign(ROLE_URNS.Editor, [BOB]);
        expect((await privilegesOf(b!, accessToken))?.has(Privilege.MANAGE_TAGS)).toBe(true);
        await b!.service.roles.assign(null, [BOB]);
        expect([...((await privilegesOf(a!, accessToken)) ?? [])]).toEqual([Privilege.GENERATE_PERSONAL_ACCESS_TOKENS]);
      });
    });
  });
}
