import { Privilege } from '@mds/auth';
import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { ApiError } from '@mds/schema';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createEntities, SYSTEM_ACTOR } from '../src/index';
import { RECENT_ENTITIES_PATH } from '../src/routes/recent-entities';
import { deactivateAllUsersPolicies } from './faces';

let dir: string;
let db: SqlDatabase;
afterEach(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const dataset = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const reader = { actor: { urn: 'urn:li:corpuser:rita', privileges: new Set<string>([Privilege.VIEW_ENTITY_PAGE]) }, requestId: 'test' };

it('lists the entities whose latest aspect was written most recently, newest first, up to count', async () => {
  dir = mkdtempSync(join(tmpdir(), 'mds-recent-'));
  db = openSqliteDatabase(join(dir, 'entities.db'));
  const { module, service } = await createEntities({ db, now: () => 1_000 });
  const route = module.routes!.find((r) => r.path === RECENT_ENTITIES_PATH)!;
  const write = async (urn: string, time: number, description: string) =>
    service.write(
      await service.authorizeEdit(SYSTEM_ACTOR, [urn], []),
      [{ urn, aspect: 'datasetProperties', changeType: 'UPSERT', value: { description } }],
      { actor: 'urn:li:corpuser:datahub', time },
    );
  await write(dataset('a'), 10_000, 'first');
  await write(dataset('b'), 20_000, 'second');
  await write(dataset('c'), 30_000, 'third');
  // a's newer write takes it to the top; its older aspects do not count.
  await write(dataset('a'), 40_000, 'edited');

  const ask = (count?: string, context = reader) =>
    route.handler(context, { params: {}, query: new URLSearchParams(count === undefined ? '' : `count=${count}`), body: undefined });
  expect(await ask('2')).toEqual({
    entities: [
      { urn: dataset('a'), lastWritten: 40_000 },
      { urn: dataset('c'), lastWritten: 30_000 },
    ],
  });
  // The seeded root user and DataHub's default policies (written at the `now` of createEntities) come last.
  const urns = ((await ask()) as { entities: { urn: string }[] }).entities.map((e) => e.urn);
  expect(urns.slice(0, 4)).toEqual([dataset('a'), dataset('c'), dataset('b'), 'urn:li:corpuser:datahub']);
  expect(urns.slice(4).length).toBeGreaterThan(0);
  for (const urn of urns.slice(4)) expect(urn).toMatch(/^urn:li:dataHubPolicy:/);

  for (const bad of ['0', '101', 'ten', '2.5'])
    await expect(ask(bad)).rejects.toThrow(`Parameter 'count' must be an integer from 1 to 100, got: ${bad}`);
  // A user without a role reads them through DataHub's "All Users - View Entity Page" policy; deactivated, it is refused.
  const nobody = { ...reader, actor: { urn: 'urn:li:corpuser:nobody', privileges: new Set<string>() } };
  expect(await ask('2', nobody)).toEqual(await ask('2'));
  await deactivateAllUsersPolicies(service);
  await expect(ask('2', nobody)).rejects.toSatisfy((e) => e instanceof ApiError && e.status === 403);
});
