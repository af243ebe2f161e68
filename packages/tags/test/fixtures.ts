import { Privilege } from '@mds/auth';
import { ApiError, buildApiSchema, type ApiContext } from '@mds/schema';
import { openDatabase, openSqliteDatabase, type SqlDatabase, type SqliteDatabase } from '@mds/db';
import { anyOf, createEntities, createEntityGraphql, SYSTEM_ACTOR, type Edit, type Entities } from '@mds/entities';
import { graphql, type ExecutionResult } from 'graphql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createTagService, createTags, type TagsDeps } from '../src/index';

const legacyDbs: SqliteDatabase[] = [];
const dbs: SqlDatabase[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const db of legacyDbs.splice(0)) if (db.open) db.close();
  for (const db of dbs.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A path in a fresh temporary directory, removed after the test. */
export function tempFile(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'mds-tags-'));
  dirs.push(dir);
  return join(dir, name);
}

/** A SQLite file as an older mds kept tags in (`mds.db`), closed after the test. */
export function legacyDatabase(): SqliteDatabase {
  const db = openDatabase(tempFile('mds.db'));
  legacyDbs.push(db);
  return db;
}

/** The aspect store and search index on `file` (migrated), as the host builds them; closed after the test. */
export async function openEntities(file: string) {
  const db = openSqliteDatabase(file);
  dbs.push(db);
  return createEntities({ db });
}

/** Another tag service over the tags of `file`, as a second process would have one. */
export async function openStore(file: string, options: { now?: () => number } = {}) {
  return createTagService(await openEntities(file), options);
}

/** A user who may create and manage tags (as an Editor may), for calls of the service itself. */
export const tagEditor = (urn: string) => ({ urn, privileges: new Set<string>([Privilege.MANAGE_TAGS, Privilege.CREATE_TAGS]) });

/** Aspects written as an ingestion would, stamped by `audit`, past every tag rule (tests of what the service reads). */
export async function ingested(entities: Entities, edits: Edit[], audit: { actor: string; time: number }) {
  const grant = await entities.service.authorize(SYSTEM_ACTOR, anyOf(Privilege.EDIT_ENTITY));
  await entities.service.write(grant, edits, audit);
}

/** A clock that starts at `start` and moves one second per call, so every audit stamp is predictable. */
export function steppingClock(start = 1_700_000_000_000) {
  let time = start - 1_000;
  return () => (time += 1_000);
}

/** The tags module on a fresh aspect store file, plus a GraphQL executor over the full API schema. */
export async function setup(options: Omit<TagsDeps, 'entities'> = {}) {
  const file = tempFile('entities.db');
  const entities = await openEntities(file);
  const { module, service: store, face, describe } = await createTags({ entities, ...options });
  const schema = buildApiSchema([
    module,
    createEntityGraphql({ service: entities.service, search: entities.search, faces: { TAG: face }, describers: { tag: describe } }),
  ]);
  const run = (context: ApiContext, source: string, variableValues?: Record<string, unknown>) =>
    graphql({ schema, source, variableValues, contextValue: context }) as Promise<ExecutionResult<Record<string, any>>>;
  return { file, entities, store, module, run };
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

/** What a store call threw or rejected with, as status, kind and message (fails the test unless an ApiError). */
export async function thrown(call: () => unknown) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, kind: error.kind, message: error.message };
  }
  throw new Error('expected an ApiError, but the call succeeded');
}
