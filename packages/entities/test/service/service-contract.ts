import { Privilege } from '@mds/auth';
import { findEntity, type MaybePromise } from '@mds/core';
import type { TestSqlDatabases } from '@mds/db/testing';
import { ApiError, type Actor } from '@mds/schema';
import { describe, expect, it } from 'vitest';
import { anyOf, createEntityService, ItemWriteError, SYSTEM_ACTOR, type EntityService } from '../../src/service';
import type { AuthorizationSwitches } from '../../src/service/policy';
import type { PointsRequest, TimeseriesIngestPort } from '../../src/service/ports';
import { createSqlAspectStore } from '../../src/store/sql-store';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
const OWNER = 'urn:li:corpuser:olivia';
const actor = (urn: string, ...privileges: string[]): Actor => ({ urn, privileges: new Set(privileges) });
const editor = actor('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY, Privilege.VIEW_ENTITY_PAGE, Privilege.VIEW_DATASET_PROFILE);
const reader = actor('urn:li:corpuser:rita', Privilege.VIEW_ENTITY_PAGE, Privilege.VIEW_DATASET_PROFILE);
const owner = actor(OWNER);
const nobody = actor('urn:li:corpuser:nora');
const T = 1_700_000_000_000;

const mcp = (urn: string, aspectName: string, value: unknown, more: Record<string, unknown> = {}) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  ...more,
});
const placed = (proposals: unknown[]) => proposals.map((proposal, i) => ({ proposal, place: { action: 'test', path: `proposals.${i}` } }));
const tags = (...names: string[]) => ({ tags: names.map((name) => ({ tag: `urn:li:tag:${name}` })) });
const ownership = (...owners: string[]) => ({ owners: owners.map((o) => ({ owner: o, type: 'TECHNICAL_OWNER' })) });
const denied = (urns: readonly string[]) => `refused: ${urns.join(' ')}`;

/** A time-series store in memory: datasetProfile and operation points of datasets, by urn. */
function memoryTimeseries() {
  const points: { urn: string; aspect: string; timestampMillis: number; value: Record<string, unknown> }[] = [];
  const port: TimeseriesIngestPort<(typeof points)[number]> = {
    accepts: (entityType, aspect) =>
      entityType.toLowerCase() === 'dataset' && ['datasetprofile', 'operation'].includes(aspect.toLowerCase()),
    prepare(proposal) {
      const { entityUrn, aspectName, aspect } = proposal as { entityUrn: string; aspectName: string; aspect: { value: string } };
      const value = JSON.parse(aspect.value) as Record<string, unknown>;
      if (typeof value.timestampMillis !== 'number') throw new ApiError('BAD_REQUEST', 'timestampMillis is required');
      return { urn: entityUrn, aspect: aspectName, timestampMillis: value.timestampMillis, value };
    },
    write: async (documents) => void points.push(...documents),
    async deleteEntity({ urn, aspectName }) {
      const gone = points.filter((p) => p.urn === urn && (aspectName === undefined || p.aspect === aspectName));
      for (const point of gone) points.splice(points.indexOf(point), 1);
      return gone.length;
    },
    async latest({ urn, aspectName }) {
      const found = points.filter((p) => p.urn === urn && p.aspect === aspectName).sort((a, b) => b.timestampMillis - a.timestampMillis)[0];
      return found && { timestampMillis: found.timestampMillis, value: found.value, systemMetadata: null };
    },
  };
  const read = async (request: PointsRequest) =>
    points.filter((p) => p.urn === request.urn && p.aspect === request.aspect).map((p) => p.value);
  return { points, port, read };
}

/** What the entity service promises on every dialect of the storage port: ingest, read, update, delete, policy. */
export function describeServiceContract(name: string, databases: Pick<TestSqlDatabases, 'open'>) {
  async function freshService(switches?: AuthorizationSwitches) {
    const store = createSqlAspectStore(await databases.open());
    await store.migrate();
    const timeseries = memoryTimeseries();
    let time = T;
    const service = createEntityService({ store, timeseries: timeseries.port, points: timeseries.read, switches, now: () => time++ });
    return { service, store, timeseries };
  }
  /** DATASET owned by OWNER, OTHER by nobody, both tagged `pii`. */
  async function withOwnedDataset(switches?: AuthorizationSwitches) {
    const fixture = await freshService(switches);
    await fixture.service.ingest(
      SYSTEM_ACTOR,
      placed([mcp(DATASET, 'ownership', ownership(OWNER)), mcp(DATASET, 'globalTags', tags('pii')), mcp(OTHER, 'globalTags', tags('pii'))]),
      { batch: true },
    );
    return fixture;
  }
  const rejection = async (promise: MaybePromise<unknown>) => {
    const error = await Promise.resolve(promise).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    const { status, message } = error as ApiError;
    return { status, message };
  };

  describe(`entity service: ${name}`, () => {
    describe('ingest: parse, validate every value, authorize, write', () => {
      it('writes versioned aspects and hands time-series ones to the time-series store', async () => {
        const { service, store, timeseries } = await freshService();
        const summary = await service.ingest(
          editor,
          placed([mcp(DATASET, 'globalTags', tags('pii')), mcp(DATASET, 'datasetProfile', { timestampMillis: 5, rowCount: 3 })]),
          { batch: true },
        );
        expect(summary).toEqual({ written: 2, unchanged: 0, skipped: 0 });
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
        expect((await store.get(DATASET, 'datasetKey'))!.createdBy).toBe(editor.urn);
        expect(timeseries.points.map((p) => [p.urn, p.aspect])).toEqual([[DATASET, 'datasetProfile']]);
        expect(await store.outbox.pending(10)).toEqual([]);
      });

      it('a batch of both kinds is one commit: points its process could not relay after the commit are relayed at the next start', async () => {
        const { service, store, timeseries } = await freshService();
        // The process "dies" between the commit and the relay: the time-series store's write never happens.
        const relay = timeseries.port.write;
        timeseries.port.write = () => Promise.reject(new Error('the process died here'));
        const profile = (t: number) => mcp(DATASET, 'datasetProfile', { timestampMillis: t, rowCount: t });
        await expect(
          service.ingest(editor, placed([mcp(DATASET, 'globalTags', tags('pii')), profile(5), profile(6)]), { batch: true }),
        ).rejects.toThrow('the process died here');
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
        expect(await store.outbox.pending(10)).toHaveLength(2);
        // A batch refused by validation queues nothing.
        await expect(
          service.ingest(editor, placed([mcp(OTHER, 'globalTags', { tags: 'x' }), profile(7)]), { batch: true }),
        ).rejects.toThrow(ApiError);
        expect(await store.outbox.pending(10)).toHaveLength(2);

        // The next start: a service over the same database relays what is queued, once.
        timeseries.port.write = relay;
        const restarted = createEntityService({ store, timeseries: timeseries.port, points: timeseries.read });
        expect(await restarted.relayOutbox(1)).toBe(2);
        expect(timeseries.points.map((p) => p.timestampMillis)).toEqual([5, 6]);
        expect(await store.outbox.pending(10)).toEqual([]);
        expect(await restarted.relayOutbox()).toBe(0);
      });

      it("a time-series point of an entity with no aspect yet creates it: its key is stored first, as DataHub's EntityServiceImpl does", async () => {
        const { service, store, timeseries } = await freshService();
        expect(await store.exists(OTHER)).toBe(false);
        const point = mcp(OTHER, 'datasetProfile', { timestampMillis: 5, rowCount: 3 });
        expect(await service.ingest(editor, placed([point]), { batch: false })).toEqual({ written: 1, unchanged: 0, skipped: 0 });
        expect(await store.exists(OTHER)).toBe(true);
        expect([...(await store.latest([OTHER])).get(OTHER)!.keys()]).toEqual(['datasetKey']);
        expect((await store.get(OTHER, 'datasetKey'))!.value).toEqual({
          platform: 'urn:li:dataPlatform:hive',
          name: 'db.customers',
          origin: 'PROD',
        });
        // Another point leaves the entity as it is: no new row, the same key.
        await service.ingest(editor, placed([mcp(OTHER, 'datasetProfile', { timestampMillis: 6, rowCount: 4 })]), { batch: false });
        expect(await store.versions(OTHER, 'datasetKey')).toHaveLength(1);
        expect(timeseries.points).toHaveLength(2);
        // A point refused by the time-series store creates nothing.
        const THIRD = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.third,PROD)';
        await expect(service.ingest(editor, placed([mcp(THIRD, 'datasetProfile', { rowCount: 1 })]), { batch: false })).rejects.toThrow(
          'timestampMillis is required',
        );
        expect(await store.exists(THIRD)).toBe(false);
      });

      it('refuses a malformed urn (400), an unknown entity (422), a urn its key cannot be built from (400): the batch names the item, writes nothing', async () => {
        const { service, store } = await freshService();
        const batch = (bad: unknown) => service.ingest(editor, placed([mcp(OTHER, 'globalTags', tags('a')), bad]), { batch: true });
        expect(await rejection(batch(mcp(' urn:li:dataset:x', 'globalTags', tags('a'))))).toEqual({
          status: 400,
          message: 'proposals.1: Error: cannot provide an URN with leading or trailing whitespace',
        });
        expect(await rejection(batch(mcp(DATASET, 'globalTags', tags('a'), { entityType: 'spaceship' })))).toEqual({
          status: 422,
          message: 'proposals.1: Unknown entity: spaceship',
        });
        expect(await rejection(batch(mcp('urn:li:dataset:(urn:li:dataPlatform:hive,short)', 'globalTags', tags('a'))))).toEqual({
          status: 400,
          message: 'proposals.1: Failed to convert urn to entity key: urns parts and key fields do not have same length',
        });
        expect(await store.latest([OTHER])).toEqual(new Map());
      });

      it('validates a value before it authorizes the caller: a bad value is a 422 whoever sends it', async () => {
        const { service, store } = await freshService();
        const bad = mcp(DATASET, 'globalTags', { tags: [{ tag: 'not an urn' }] });
        expect(await rejection(service.ingest(nobody, placed([bad]), { batch: false, denied }))).toMatchObject({
          status: 422,
          message: expect.stringMatching(/^Failed to validate record with class com\.linkedin\.common\.GlobalTags: /),
        });
        expect(await rejection(service.ingest(nobody, placed([mcp(DATASET, 'globalTags', tags('a'))]), { batch: false, denied }))).toEqual({
          status: 403,
          message: `refused: ${DATASET}`,
        });
        expect(await store.latest([DATASET])).toEqual(new Map());
      });

      it('validates the result of a PATCH inside the write: an invalid one writes nothing of the batch', async () => {
        const { service, store } = await freshService();
        const patch = mcp(DATASET, 'globalTags', [{ op: 'add', path: '/tags/x', value: { tag: 'not an urn' } }], { changeType: 'PATCH' });
        expect(
          await rejection(service.ingest(editor, placed([mcp(OTHER, 'globalTags', tags('a')), patch]), { batch: true })),
        ).toMatchObject({
          status: 422,
          message: expect.stringMatching(/^proposals\.1: Failed to validate record with class com\.linkedin\.common\.GlobalTags: /),
        });
        expect(await store.latest([OTHER, DATASET])).toEqual(new Map());
      });

      it('lets an owner ingest into what it owns (DataHub’s Asset Owners policy grants EDIT_ENTITY); the 403 names only the urns refused', async () => {
        const { service, store } = await withOwnedDataset();
        await service.ingest(owner, placed([mcp(DATASET, 'globalTags', tags('gold'))]), { batch: false });
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('gold'));
        const both = placed([mcp(DATASET, 'globalTags', tags('x')), mcp(OTHER, 'globalTags', tags('x'))]);
        expect(await rejection(service.ingest(owner, both, { batch: true }))).toEqual({
          status: 403,
          message: `User ${OWNER} is unauthorized to modify entity: HttpStatus: 403 Urn: ${OTHER}`,
        });
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('gold'));
      });

      it('checks nothing with REST_API_AUTHORIZATION_ENABLED off, as DataHub', async () => {
        const { service, store } = await freshService({ restApi: false, view: false });
        await service.ingest(nobody, placed([mcp(DATASET, 'globalTags', tags('a'))]), { batch: false });
        expect((await store.get(DATASET, 'globalTags'))!.createdBy).toBe(nobody.urn);
      });
    });

    describe('edits: a grant, then writes each checked as an ingested value is', () => {
      it('refuses an invalid value with DataHub’s 422 and writes nothing of the edit', async () => {
        const { service, store } = await withOwnedDataset();
        const grant = await service.authorizeEdit(editor, [DATASET], [Privilege.EDIT_ENTITY_TAGS]);
        const failed = await service
          .write(grant, [
            { urn: DATASET, aspect: 'status', changeType: 'UPSERT', value: { removed: true } },
            { urn: DATASET, aspect: 'globalTags', changeType: 'UPSERT', value: { tags: [{ tag: 'nope' }] } },
          ])
          .catch((e: unknown) => e);
        expect(failed).toBeInstanceOf(ItemWriteError);
        expect((failed as ItemWriteError).index).toBe(1);
        expect((failed as ItemWriteError).error.message).toMatch(
          /^Failed to validate record with class com\.linkedin\.common\.GlobalTags: /,
        );
        expect(await store.get(DATASET, 'status')).toBeUndefined();
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
      });

      it('refuses an aspect the entity does not have (422) and a malformed urn (400)', async () => {
        const { service } = await freshService();
        const grant = await service.authorize(SYSTEM_ACTOR, anyOf(Privilege.EDIT_ENTITY));
        const refusal = async (edit: Parameters<EntityService['write']>[1][number]) => {
          const error = (await service.write(grant, [edit]).catch((e: unknown) => e)) as ItemWriteError;
          return [error.error.status, error.error.message];
        };
        expect(await refusal({ urn: DATASET, aspect: 'tagProperties', changeType: 'UPSERT', value: { name: 'x' } })).toEqual([
          422,
          'Unknown aspect tagProperties for entity dataset',
        ]);
        expect(await refusal({ urn: 'urn:li:dataset:', aspect: 'status', changeType: 'UPSERT', value: { removed: true } })).toEqual([
          400,
          "Invalid urn: urn:li:dataset:\n Cause: URN must start with 'urn:li:<entityType>:' and have a key",
        ]);
      });

      it('grants an owner its entity’s edits but not another’s, nor a platform privilege; only an issued grant writes, and only what it covers', async () => {
        const { service } = await withOwnedDataset();
        const grant = await service.authorizeEdit(owner, [DATASET], [Privilege.EDIT_ENTITY_OWNERS]);
        expect(await rejection(service.authorizeEdit(owner, [DATASET, OTHER], [Privilege.EDIT_ENTITY_TAGS], 'no'))).toEqual({
          status: 403,
          message: 'no',
        });
        expect(await rejection(service.authorize(owner, anyOf(Privilege.MANAGE_DOMAINS), undefined, 'not yours'))).toEqual({
          status: 403,
          message: 'not yours',
        });
        const edit = (urn: string) => [{ urn, aspect: 'status', changeType: 'UPSERT' as const, value: { removed: false } }];
        await expect(service.write(grant, edit(OTHER))).rejects.toThrow(`entity service: no grant covers ${OTHER}`);
        await expect(service.write({ actor: owner, resources: 'platform' }, edit(DATASET))).rejects.toThrow(
          'entity service: a write needs a grant issued by this service',
        );
        expect(await service.write(grant, edit(DATASET))).toEqual([{ urn: DATASET, aspect: 'status', outcome: 'written' }]);
      });

      it('update: a read-modify-write that loses none of 6 concurrent edits, each a new version', async () => {
        const { service, store } = await withOwnedDataset();
        const grant = await service.authorizeEdit(editor, [DATASET], []);
        await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            service.update(grant, { urn: DATASET, aspect: 'globalTags' }, (current) => ({
              tags: [...((current?.tags as unknown[]) ?? []), { tag: `urn:li:tag:t${i}` }],
            })),
          ),
        );
        const latest = (await store.get(DATASET, 'globalTags'))!;
        expect((latest.value.tags as unknown[]).length).toBe(7);
        expect(latest.systemMetadata?.version).toBe('7');
        expect(latest.createdBy).toBe(editor.urn);
      });

      it('updateAll: several aspects read, modified and written together, or none of them when one is refused or invalid', async () => {
        const { service, store } = await withOwnedDataset();
        const grant = await service.authorizeEdit(editor, [DATASET, OTHER], []);
        const tagged = (tag: string) => (current: Record<string, unknown> | undefined) => ({
          tags: [...((current?.tags as unknown[]) ?? []), { tag }],
        });
        const before = await store.get(DATASET, 'globalTags');
        const otherBefore = await store.get(OTHER, 'globalTags');
        const tagsOf = (stored: typeof before) => (stored?.value.tags as unknown[]) ?? [];
        // The second change fails validation (a tag that is not a urn): the first is not written either.
        const invalid = service.updateAll(grant, [
          { urn: OTHER, aspect: 'globalTags', modify: tagged('urn:li:tag:a') },
          { urn: DATASET, aspect: 'globalTags', modify: tagged('not a urn') },
        ]);
        expect((await rejection(invalid)).status).toBe(422);
        expect(await store.get(OTHER, 'globalTags')).toEqual(otherBefore);
        // A refusal thrown by a modifier: nothing written.
        const refused = service.updateAll(grant, [
          { urn: OTHER, aspect: 'globalTags', modify: tagged('urn:li:tag:a') },
          {
            urn: DATASET,
            aspect: 'status',
            modify: () => {
              throw new Error('refused');
            },
          },
        ]);
        await expect(refused).rejects.toThrow('refused');
        expect(await store.get(OTHER, 'globalTags')).toEqual(otherBefore);
        // Two changes of one aspect apply in order on one read; each aspect is one new version.
        const results = await service.updateAll(grant, [
          { urn: OTHER, aspect: 'globalTags', modify: tagged('urn:li:tag:a') },
          { urn: DATASET, aspect: 'globalTags', modify: tagged('urn:li:tag:b') },
          { urn: OTHER, aspect: 'globalTags', modify: tagged('urn:li:tag:c') },
        ]);
        expect(results.map(({ urn, written }) => [urn, written])).toEqual([
          [OTHER, true],
          [DATASET, true],
        ]);
        expect(tagsOf(await store.get(OTHER, 'globalTags'))).toEqual([
          ...tagsOf(otherBefore),
          { tag: 'urn:li:tag:a' },
          { tag: 'urn:li:tag:c' },
        ]);
        expect(tagsOf(await store.get(DATASET, 'globalTags'))).toEqual([...tagsOf(before), { tag: 'urn:li:tag:b' }]);
      });
    });

    describe('stored policies (dataHubPolicy entities)', () => {
      it('a policy decides from the next call on; only dataHubPolicy entities are read as policies', async () => {
        const { service, store } = await withOwnedDataset();
        const policy = (urn: string, users: string[]) =>
          mcp(
            urn,
            'dataHubPolicyInfo',
            {
              displayName: urn,
              description: '',
              type: 'METADATA',
              state: 'ACTIVE',
              privileges: ['EDIT_ENTITY'],
              actors: { users, resourceOwners: false, allUsers: false, allGroups: false },
              editable: true,
              resources: { allResources: false, filter: { criteria: [{ field: 'TAG', values: ['urn:li:tag:pii'], condition: 'EQUALS' }] } },
            },
            { entityType: 'dataHubPolicy' },
          );
        expect(await service.allows(nobody, [[Privilege.EDIT_ENTITY]], OTHER)).toBe(false);
        await service.ingest(SYSTEM_ACTOR, placed([policy('urn:li:dataHubPolicy:a', [nobody.urn]), policy('urn:li:dataHubPolicy:b', [])]), {
          batch: true,
        });
        await service.ingest(
          SYSTEM_ACTOR,
          placed([
            mcp('urn:li:dataHubRole:x', 'dataHubRoleInfo', { name: 'x', description: '', editable: true }, { entityType: 'dataHubRole' }),
          ]),
          {
            batch: true,
          },
        );
        expect([...(await store.latestOfType('dataHubPolicy', ['dataHubPolicyInfo'])).keys()]).toEqual([
          'urn:li:dataHubPolicy:a',
          'urn:li:dataHubPolicy:b',
        ]);
        expect(await service.allows(nobody, [[Privilege.EDIT_ENTITY]], OTHER)).toBe(true);
        expect(await service.allows(reader, [[Privilege.EDIT_ENTITY]], OTHER)).toBe(false);
      });
    });

    describe('reads under the rule of the face that reads', () => {
      it('REST: READ on every urn (the role, or ownership), the face’s text naming the first refused; open with the switch off', async () => {
        const { service } = await withOwnedDataset();
        const rest = (who: Actor) => service.reader(who, { api: 'rest', denied: (urn) => `cannot read ${urn}` });
        expect([...(await rest(reader).latest([DATASET, OTHER])).keys()].sort()).toEqual([OTHER, DATASET]);
        expect((await rest(owner).get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
        expect(await rejection(rest(owner).latest([DATASET, OTHER]))).toEqual({ status: 403, message: `cannot read ${OTHER}` });
        expect(await rejection(rest(nobody).exists(DATASET))).toEqual({ status: 403, message: `cannot read ${DATASET}` });
        const open = (await withOwnedDataset({ restApi: false, view: false })).service;
        expect(await open.reader(nobody, { api: 'rest', denied: () => 'no' }).exists(OTHER)).toBe(true);
      });

      it('GraphQL: everything with VIEW_AUTHORIZATION_ENABLED off; with it on, a restricted type reads as empty to whoever may not view it', async () => {
        expect((await (await withOwnedDataset()).service.reader(nobody, { api: 'graphql' }).latest([DATASET])).size).toBe(1);
        const { service } = await withOwnedDataset({ restApi: true, view: true });
        const graphql = (who: Actor | undefined) => service.reader(who, { api: 'graphql' });
        expect([...(await graphql(nobody).latest([DATASET, OTHER])).keys()]).toEqual([]);
        expect([...(await graphql(owner).latest([DATASET, OTHER])).keys()]).toEqual([DATASET]);
        expect(await graphql(owner).get(OTHER, 'globalTags')).toBeUndefined();
        // Its history (the timeline's reads) is hidden alike.
        expect(await graphql(owner).versions(OTHER, 'globalTags')).toEqual([]);
        expect((await graphql(owner).versions(DATASET, 'globalTags')).map((row) => row.version)).toEqual([0]);
        expect([...(await graphql(reader).latest([DATASET, OTHER])).keys()].sort()).toEqual([OTHER, DATASET]);
        // One urn's aspects come from the store's cache, shared by every caller: hidden from one, still there for the next.
        expect((await graphql(nobody).latest([OTHER])).size).toBe(0);
        expect((await graphql(reader).latest([OTHER])).size).toBe(1);
        // Search results stay open to any caller, as search is.
        expect((await service.reader(nobody, { api: 'search' }).latest([OTHER])).size).toBe(1);
      });

      it('time-series points: a profile only for VIEW_DATASET_PROFILE on the dataset (or its owner), operations for anyone', async () => {
        const { service } = await withOwnedDataset();
        await service.ingest(
          SYSTEM_ACTOR,
          placed([mcp(DATASET, 'datasetProfile', { timestampMillis: 1, rowCount: 7 }), mcp(OTHER, 'operation', { timestampMillis: 2 })]),
          { batch: true },
        );
        const points = (who: Actor, urn: string, aspect: string) =>
          service.reader(who, { api: 'graphql' }).points({ entityType: 'dataset', urn, aspect, limit: 10 });
        expect(await points(reader, DATASET, 'datasetProfile')).toEqual([{ timestampMillis: 1, rowCount: 7 }]);
        expect(await points(owner, DATASET, 'datasetProfile')).toHaveLength(1);
        expect(await points(nobody, DATASET, 'datasetProfile')).toEqual([]);
        expect(await points(nobody, OTHER, 'operation')).toEqual([{ timestampMillis: 2 }]);
        expect(await service.reader(nobody, { api: 'search' }).point(DATASET, 'dataset', 'datasetProfile')).toMatchObject({
          timestampMillis: 1,
        });
      });
    });

    describe('deletes', () => {
      it('DELETE_ENTITY, which no owner is granted; a hard delete takes every row and every point', async () => {
        const { service, store, timeseries } = await withOwnedDataset();
        await service.ingest(SYSTEM_ACTOR, placed([mcp(DATASET, 'operation', { timestampMillis: 3 })]), { batch: false });
        expect(await rejection(service.authorizeRest(owner, 'DELETE', [DATASET], 'not yours to delete'))).toEqual({
          status: 403,
          message: 'not yours to delete',
        });
        const grant = await service.authorizeRest(actor('urn:li:corpuser:ada', Privilege.DELETE_ENTITY), 'DELETE', [DATASET], 'no');
        expect(await service.deleteEntity(grant, DATASET)).toEqual({ rows: 3, timeseriesRows: 1 });
        expect(await store.exists(DATASET)).toBe(false);
        expect(timeseries.points).toEqual([]);
      });

      it('deletes aspects: versioned ones with their versions, time-series ones with their points', async () => {
        const { service, store, timeseries } = await withOwnedDataset();
        await service.ingest(SYSTEM_ACTOR, placed([mcp(DATASET, 'operation', { timestampMillis: 3 })]), { batch: false });
        const grant = await service.authorizeRest(SYSTEM_ACTOR, 'DELETE', [DATASET], 'no');
        await service.deleteAspects(grant, DATASET, findEntity('dataset')!, ['globalTags', 'operation']);
        expect(await store.get(DATASET, 'globalTags')).toBeUndefined();
        expect(await store.get(DATASET, 'ownership')).toBeDefined();
        expect(timeseries.points).toEqual([]);
      });
    });

    describe("rollbackRun: DataHub's RollbackService over the versions the store keeps", () => {
      const run = (runId: string) => ({ systemMetadata: { runId, lastObserved: 1 } });
      /** Run one writes DATASET's tags and ownership; run two changes its tags and creates OTHER. */
      async function twoRuns() {
        const fixture = await freshService();
        const { service } = fixture;
        await service.ingest(
          SYSTEM_ACTOR,
          placed([mcp(DATASET, 'globalTags', tags('pii'), run('one')), mcp(DATASET, 'ownership', ownership(OWNER), run('one'))]),
          {
            batch: true,
          },
        );
        await service.ingest(
          SYSTEM_ACTOR,
          placed([mcp(DATASET, 'globalTags', tags('gold'), run('two')), mcp(OTHER, 'globalTags', tags('new'), run('two'))]),
          {
            batch: true,
          },
        );
        return fixture;
      }
      const admin = actor('urn:li:corpuser:ada', Privilege.DELETE_ENTITY);
      const deny = () => 'refused';

      it('restores the values the run replaced and removes what it created (hard delete)', async () => {
        const { service, store } = await twoRuns();
        const answer = await service.rollbackRun(admin, 'two', { dryRun: false, hardDelete: true }, deny);
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
        expect((await store.get(DATASET, 'globalTags'))!.systemMetadata).toMatchObject({ runId: 'one' });
        expect(await store.versions(DATASET, 'globalTags')).toHaveLength(1);
        expect((await store.get(DATASET, 'ownership'))!.value).toEqual(ownership(OWNER));
        expect(await store.exists(OTHER)).toBe(false);
        expect(await store.get(OTHER, 'globalTags')).toBeUndefined();
        expect(answer).toMatchObject({
          entitiesAffected: 2,
          entitiesDeleted: 1,
          aspectsReverted: 3,
          unsafeEntitiesCount: 0,
          unsafeEntities: [],
        });
        expect(answer.aspectRowSummaries.map((r) => [r.urn, r.aspectName, r.keyAspect, r.runId])).toEqual([
          [OTHER, 'datasetKey', true, 'two'],
          [OTHER, 'globalTags', false, 'two'],
          [DATASET, 'globalTags', false, 'two'],
        ]);
        // Rolled back, the run has nothing left; run one then goes too, DATASET with it.
        expect(await service.rollbackRun(admin, 'two', { dryRun: false, hardDelete: true }, deny)).toMatchObject({ entitiesAffected: 0 });
        await service.rollbackRun(admin, 'one', { dryRun: false, hardDelete: true }, deny);
        expect(await store.exists(DATASET)).toBe(false);
      });

      it('a dry run changes nothing and says what would change; a safe (soft) rollback keeps the key and marks the entity removed', async () => {
        const { service, store } = await twoRuns();
        const dry = await service.rollbackRun(admin, 'two', { dryRun: true, hardDelete: false }, deny);
        expect(dry).toMatchObject({ entitiesAffected: 2, entitiesDeleted: 1, aspectsReverted: 2 });
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('gold'));
        expect(await store.exists(OTHER)).toBe(true);
        await service.rollbackRun(admin, 'two', { dryRun: false, hardDelete: false }, deny);
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
        expect(await store.exists(OTHER, { includeSoftDeleted: false })).toBe(false);
        expect(await store.exists(OTHER)).toBe(true);
        expect(await store.get(OTHER, 'globalTags')).toBeUndefined();
      });

      it('an entity the run created that other runs wrote to is unsafe; DELETE on every entity is asked; the default run id is refused', async () => {
        const { service, store } = await twoRuns();
        await service.ingest(SYSTEM_ACTOR, placed([mcp(OTHER, 'ownership', ownership(OWNER), run('three'))]), { batch: false });
        expect(await service.rollbackRun(admin, 'two', { dryRun: true, hardDelete: true }, deny)).toMatchObject({
          unsafeEntitiesCount: 1,
          unsafeEntities: [{ urn: OTHER }],
          aspectsAffected: 1,
        });
        expect(await rejection(service.rollbackRun(editor, 'two', { dryRun: false, hardDelete: true }, deny))).toEqual({
          status: 403,
          message: 'refused',
        });
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('gold'));
        expect(await rejection(service.rollbackRun(admin, 'no-run-id-provided', { dryRun: true, hardDelete: true }, deny))).toMatchObject({
          status: 400,
        });
        // A run id with LIKE's wildcards matches only itself.
        expect(await service.rollbackRun(admin, 't%o', { dryRun: true, hardDelete: true }, deny)).toMatchObject({ entitiesAffected: 0 });
        expect(await service.rollbackRun(admin, 't_o', { dryRun: true, hardDelete: true }, deny)).toMatchObject({ entitiesAffected: 0 });
      });
    });
  });
}
