import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_USERS_POLICIES, createEntities, SYSTEM_ACTOR } from '../src/index';
import type { BootPolicy } from '../src/service';

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

describe("DataHub's default policies for all users (boot/policies.json), as its IngestPoliciesStep writes them at every start", () => {
  const SENSITIVE = 'urn:li:dataHubPolicy:view-dataset-sensitive';
  const ENTITY_PAGE = 'urn:li:dataHubPolicy:view-entity-page-all';
  const nobody = { urn: 'urn:li:corpuser:nobody', privileges: new Set<string>() };
  const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';

  it('are copied unchanged from DataHub’s boot file', () => {
    const boot = JSON.parse(
      readFileSync(new URL('../../auth/test/fixtures/datahub/policies.json', import.meta.url), 'utf8'),
    ) as BootPolicy[];
    expect(ALL_USERS_POLICIES).toEqual(boot.filter((p) => p.info?.actors && (p.info.actors as { allUsers?: boolean }).allUsers));
    expect(ALL_USERS_POLICIES.map((p) => p.urn)).toEqual(['urn:li:dataHubPolicy:7', ENTITY_PAGE, SENSITIVE]);
  });

  it('a new store holds them; an edit holds across restarts, a deleted one comes back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-seed-'));
    dirs.push(dir);
    const first = await open(dir);
    for (const { urn, info } of ALL_USERS_POLICIES) expect((await first.store.get(urn, 'dataHubPolicyInfo'))?.value).toEqual(info);
    // A user without a role views an entity and its profile through them.
    expect(await first.service.allows(nobody, [['VIEW_ENTITY_PAGE']], DATASET)).toBe(true);
    expect(await first.service.allows(nobody, [['VIEW_DATASET_PROFILE']], DATASET)).toBe(true);
    expect(await first.service.allows(nobody, [['EDIT_ENTITY']], DATASET)).toBe(false);

    // The operator deactivates one and deletes another.
    const grant = await first.service.authorizeEdit(SYSTEM_ACTOR, [SENSITIVE], []);
    const info = (urn: string) => ALL_USERS_POLICIES.find((p) => p.urn === urn)!.info;
    await first.service.write(grant, [
      { urn: SENSITIVE, aspect: 'dataHubPolicyInfo', changeType: 'UPSERT', value: { ...info(SENSITIVE), state: 'INACTIVE' } },
    ]);
    await first.service.deleteEntity(await first.service.authorizeEdit(SYSTEM_ACTOR, [ENTITY_PAGE], []), ENTITY_PAGE);
    expect(await first.service.allows(nobody, [['VIEW_DATASET_PROFILE']], DATASET)).toBe(false);
    await opened.pop()!.close();

    const again = await open(dir);
    // The deactivation holds: DataHub writes an editable default only where none is stored.
    expect((await again.store.get(SENSITIVE, 'dataHubPolicyInfo'))?.value).toMatchObject({ state: 'INACTIVE' });
    expect(await again.service.allows(nobody, [['VIEW_DATASET_PROFILE']], DATASET)).toBe(false);
    // The deleted one is back (DataHub's hasPolicy finds no aspect).
    expect((await again.store.get(ENTITY_PAGE, 'dataHubPolicyInfo'))?.value).toEqual(info(ENTITY_PAGE));
    expect(await again.service.allows(nobody, [['VIEW_ENTITY_PAGE']], DATASET)).toBe(true);
    // A start with nothing to restore writes no new version.
    const versions = (await again.store.versions(ENTITY_PAGE, 'dataHubPolicyInfo')).length;
    await opened.pop()!.close();
    const third = await open(dir);
    expect((await third.store.versions(ENTITY_PAGE, 'dataHubPolicyInfo')).length).toBe(versions);
  });

  it('an existing store (one from before they were seeded) gets them at its next start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-seed-'));
    dirs.push(dir);
    const first = await open(dir);
    for (const { urn } of ALL_USERS_POLICIES)
      await first.service.deleteEntity(await first.service.authorizeEdit(SYSTEM_ACTOR, [urn], []), urn);
    expect(await first.service.allows(nobody, [['VIEW_ENTITY_PAGE']], DATASET)).toBe(false);
    await opened.pop()!.close();
    const again = await open(dir);
    expect([...(await again.store.latestOfType('dataHubPolicy', ['dataHubPolicyInfo'])).keys()].sort()).toEqual(
      ALL_USERS_POLICIES.map((p) => p.urn).sort(),
    );
    expect(await again.service.allows(nobody, [['VIEW_ENTITY_PAGE']], DATASET)).toBe(true);
  });
});
