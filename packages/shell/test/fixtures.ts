import { Privilege, ROLES, ROLE_URNS } from '@mds/auth';
import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { anyOf, createEntities, createEntityGraphql, SYSTEM_ACTOR, type Edit, type Entities } from '@mds/entities';
import { buildApiSchema, type ApiContext } from '@mds/schema';
import { createTags } from '@mds/tags';
import { graphql, type ExecutionResult } from 'graphql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { createShell } from '../src/index';

const dbs: SqlDatabase[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const db of dbs.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The shell over a fresh SQLite aspect store, composed as the host composes it, and a GraphQL executor over it. */
export async function setup(env: NodeJS.ProcessEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mds-shell-'));
  dirs.push(dir);
  const db = openSqliteDatabase(join(dir, 'entities.db'));
  dbs.push(db);
  const entities = await createEntities({ db });
  const tags = await createTags({ entities });
  const shell = await createShell({ env, version: '9.9.9-test', entities });
  const schema = buildApiSchema([
    tags.module,
    shell.module,
    createEntityGraphql({
      service: entities.service,
      search: entities.search,
      faces: { TAG: tags.face },
      describers: { tag: tags.describe },
    }),
  ]);
  const run = async (context: ApiContext, source: string, variableValues?: Record<string, unknown>) =>
    (await graphql({ schema, source, variableValues, contextValue: context })) as ExecutionResult<Record<string, any>>;
  return { entities, shell, run };
}

/** A caller holding a role's privileges (mds's fixed roles), as the host's authentication gives them. */
export function as(id: string, role: keyof typeof ROLE_URNS | 'none'): ApiContext {
  const privileges = role === 'none' ? new Set<string>() : new Set<string>(ROLES.find((r) => r.name === role)!.privileges);
  return { actor: { urn: `urn:li:corpuser:${id}`, privileges }, requestId: `test-${id}` };
}

/** Aspects written through the entity service, as an ingestion would write them. */
export async function ingested(entities: Entities, edits: Omit<Edit, 'changeType'>[], time = 1_700_000_000_000) {
  const grant = await entities.service.authorize(SYSTEM_ACTOR, anyOf(Privilege.EDIT_ENTITY));
  await entities.service.write(
    grant,
    edits.map((e) => ({ ...e, changeType: 'UPSERT' as const })),
    { actor: 'urn:li:corpuser:datahub', time },
  );
}
