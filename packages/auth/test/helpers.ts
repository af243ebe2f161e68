import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createAuth, type Auth, type AuthOptions } from '../src/index';

export const SECRETS = { signingKey: 'test-signing-key-that-is-at-least-32-bytes-long', salt: 'test-salt' };
export const SYSTEM_CLIENT = { id: '__datahub_system', secret: 'system-secret-for-tests' };

const dirs: string[] = [];
const dbs: SqlDatabase[] = [];

afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mds-auth-'));
  dirs.push(dir);
  return dir;
}

/** The storage port on `<dir>/mds.db`, closed after the test; a second call on one dir is a second process's view. */
export function openTempDatabase(dir = tempDir()): SqlDatabase {
  const db = openSqliteDatabase(join(dir, 'mds.db'));
  dbs.push(db);
  return db;
}

/** A settable clock, so expiry can be tested without waiting. */
export function testClock(start = Date.UTC(2025, 0, 1, 12, 0, 0, 250)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms), set: (ms: number) => void (now = ms) };
}

export interface Fixture {
  auth: Auth;
  db: SqlDatabase;
  clock: ReturnType<typeof testClock>;
}

/** A fresh auth on a real SQLite file in a temp dir (or on `db`). */
export async function setup(options: Partial<Omit<AuthOptions, 'db' | 'now'>> & { db?: SqlDatabase } = {}): Promise<Fixture> {
  const clock = testClock();
  const db = options.db ?? openTempDatabase();
  const auth = await createAuth({ secrets: SECRETS, systemClient: SYSTEM_CLIENT, ...options, db, now: clock.now });
  return { auth, db, clock };
}

export const bearer = (token: string) => `Bearer ${token}`;

/** Decodes the JSON of a JWT part (header 0, payload 1), independently of the code under test. */
export function jwtPart(token: string, index: 0 | 1): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8')) as Record<string, unknown>;
}
