import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEntities, SYSTEM_ACTOR } from '../src/index';

const dirs: string[] = [];
const opened: SqlDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const open = async (dir: string) => {
  const db = openSqliteDatabase(join(dir, 'entities.db'));
  opened.push(db);
  return createEntities({ db, now: () => 1_700_000_000_000 });
};

describe('a new store', () => {
  it('holds DataHub’s root user as its setup writes it (entities-api §3.1), and only once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-seed-'));
    dirs.push(dir);
    const { store, service } = await open(dir);
    const info = await store.get('urn:li:corpuser:datahub', 'corpUserInfo');
    expect(info).toMatchObject({
      value: { displayName: 'Data Hub', active: true, fullName: 'Data Hub', email: 'datahub@linkedin.com' },
      createdBy: 'urn:li:corpuser:__datahub_system',
    });
    expect((await store.get('urn:li:corpuser:datahub', 'corpUserEditableInfo'))?.value).toMatchObject({ skills: [], teams: [] });
    expect(await store.exists('urn:li:corpuser:datahub')).toBe(true);

    // Edited, then opened again: the seed is not written over the edit.
    const grant = await service.authorizeEdit(SYSTEM_ACTOR, ['urn:li:corpuser:datahub'], []);
    await service.write(grant, [
      { urn: 'urn:li:corpuser:datahub', aspect: 'corpUserInfo', changeType: 'UPSERT', value: { active: true, displayName: 'Root' } },
    ]);
    await opened.pop()!.close();
    const again = await open(dir);
    expect((await again.store.get('urn:li:corpuser:datahub', 'corpUserInfo'))?.value).toEqual({ active: true, displayName: 'Root' });
  });
});
