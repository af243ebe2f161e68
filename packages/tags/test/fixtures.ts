import { Privilege } from '@mds/auth';
import { ApiError, buildApiSchema, type ApiContext } from '@mds/schema';
import { openDatabase, type SqliteDatabase } from '@mds/db';
import { graphql, type ExecutionResult } from 'graphql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createTagsModule } from '../src/index';

const dbs: SqliteDatabase[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh SQLite file in its own temporary directory, removed after the test. */
export function tempDatabase(): { db: SqliteDatabase; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mds-tags-'));
  dirs.push(dir);
  const file = join(dir, 'mds.db');
  return { db: openAgain(file), file };
}

/** Another connection to `file`, as a second process would have one; closed after the test. */
export function openAgain(file: string): SqliteDatabase {
  const db = openDatabase(file);
  dbs.push(db);
  return db;
}

/** A clock that starts at `start` and moves one second per call, so every audit stamp is predictable. */
export function steppingClock(start = 1_700_000_000_000) {
  let time = start - 1_000;
  return () => (time += 1_000);
}

/** The tags module on a fresh database file, plus a GraphQL executor over the full API schema. */
export function setup(options: { now?: () => number } = {}) {
  const { db, file } = tempDatabase();
  const { module, store } = createTagsModule({ db, ...options });
  const schema = buildApiSchema([module.resolvers!]);
  const run = (context: ApiContext, source: string, variableValues?: Record<string, unknown>) =>
    graphql({ schema, source, variableValues, contextValue: context }) as Promise<ExecutionResult<Record<string, any>>>;
  return { db, file, store, module, run };
}

const context = (id: string, privileges: string[]): ApiContext => ({
  actor: { urn: `urn:li:corpuser:${id}`, privileges: new Set(privileges) },
  requestId: `test-${id}`,
});

export const editor = context('editor', [Privilege.MANAGE_TAGS, Privilege.CREATE_TAGS]);
export const creator = context('creator', [Privilege.CREATE_TAGS]);
export const reader = context('reader', []);

/** The one error of a GraphQL answer, reduced to what a client sees. */
export function onlyError(result: ExecutionResult) {
  expectLength(result.errors, 1);
  const [error] = result.errors!;
  return { message: error!.message, extensions: error!.extensions };
}

function expectLength(errors: readonly unknown[] | undefined, n: number) {
  if (errors?.length !== n) throw new Error(`expected ${n} error(s), got ${JSON.stringify(errors)}`);
}

export const badRequest = (message: string) => ({ message, extensions: { code: 400, type: 'BAD_REQUEST' } });
export const notFound = (message: string) => ({ message, extensions: { code: 404, type: 'NOT_FOUND' } });
export const forbidden = {
  message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
  extensions: { code: 403, type: 'UNAUTHORIZED' },
};

/** What a store call threw, as status, kind and message (fails the test when it did not throw an ApiError). */
export function thrown(call: () => unknown) {
  try {
    call();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, kind: error.kind, message: error.message };
  }
  throw new Error('expected an ApiError, but the call succeeded');
}
