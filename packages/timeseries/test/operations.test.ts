import { Privilege } from '@mds/auth';
import { describe, expect, it } from 'vitest';
import type { Actor } from '@mds/schema';
import type { OpenApiIndexSizes } from '../src/index.ts';
import { indexSizeEntries } from '../src/operations-actions.ts';
import {
  INDEX,
  actorWith,
  admin,
  apiError,
  callAction,
  doc,
  reader,
  refOf,
  embeddedPerTest,
  truncation,
  waitForTask,
  writeRange,
} from './helpers.ts';

describe('operations actions', () => {
  const suite = embeddedPerTest();
  const call = (name: string, body: unknown, actor = admin) => callAction(suite.timeseries.module.actions!, name, body, actor);

  describe('getIndexSizes', () => {
    it('lists every time-series index, parsed names, decimal MB in both fields, largest first', async () => {
      await writeRange(suite.timeseries.store, 1, 2000);
      await suite.timeseries.store.write([doc(1, { index: 'chart_chartusagestatisticsaspect_v1' })]);
      const { indexSizes } = (await call('getIndexSizes', {})) as { indexSizes: Record<string, unknown>[] };
      expect(indexSizes).toHaveLength(2);
      expect(Object.keys(indexSizes[0]!)).toEqual(['aspectName', 'sizeMb', 'indexName', 'entityName', 'sizeInMb']);
      expect(indexSizes[0]).toMatchObject({ indexName: INDEX, entityName: 'dataset', aspectName: 'datasetprofile' });
      expect(indexSizes[1]).toMatchObject({
        indexName: 'chart_chartusagestatisticsaspect_v1',
        entityName: 'chart',
        aspectName: 'chartusagestatistics',
      });
      const sizes = await suite.timeseries.store.indexSizes();
      for (const entry of indexSizes) {
        const bytes = sizes.find((s) => s.indexName === entry.indexName)!.sizeBytes;
        expect(entry.sizeMb).toBe(bytes / 1_000_000);
        expect(entry.sizeInMb).toBe(entry.sizeMb);
      }
      expect(indexSizes[0]!.sizeMb as number).toBeGreaterThan(indexSizes[1]!.sizeMb as number);
    });

    it('answers an empty list on a new install', async () => {
      expect(await call('getIndexSizes', {})).toEqual({ indexSizes: [] });
    });

    it('needs GET_TIMESERIES_INDEX_SIZES_PRIVILEGE or MANAGE_SYSTEM_OPERATIONS, with DataHub 403 text', async () => {
      const refused = await apiError(call('getIndexSizes', {}, reader));
      expect([refused.status, refused.message]).toEqual([403, 'User is unauthorized to get index sizes.']);
      await expect(call('getIndexSizes', {}, actorWith(Privilege.GET_TIMESERIES_INDEX_SIZES))).resolves.toBeDefined();
      await expect(call('getIndexSizes', {}, actorWith(Privilege.MANAGE_SYSTEM_OPERATIONS))).resolves.toBeDefined();
    });

    it('is also the OpenAPI answer: {sizes:[{aspectName, entityName, indexName, sizeMb}]}, same privilege', async () => {
      await writeRange(suite.timeseries.store, 1, 10);
      const route = suite.timeseries.module.routes!.find(
        (r) => r.method === 'GET' && r.path === '/openapi/operations/elasticSearch/getIndexSizes',
      )!;
      const openApiIndexSizes = async (actor: Actor) => (await route.handler({ actor, requestId: 'test' })) as OpenApiIndexSizes;
      const answer = await openApiIndexSizes(admin);
      expect(answer.sizes).toHaveLength(1);
      expect(Object.keys(answer.sizes[0]!)).toEqual(['aspectName', 'entityName', 'indexName', 'sizeMb']);
      expect(answer.sizes[0]).toMatchObject({ aspectName: 'datasetprofile', entityName: 'dataset', indexName: INDEX });
      const refused = await apiError(openApiIndexSizes(reader));
      expect([refused.status, refused.message]).toEqual([403, 'User is unauthorized to get index sizes.']);
    });

    it('reads prefixed names back, skipping names that are not time-series indices', () => {
      const entries = indexSizeEntries('acme', [
        { indexName: 'acme_dataset_operationaspect_v1', sizeBytes: 1_500_000 },
        { indexName: 'acme_query_queryusagestatisticsaspect_v1', sizeBytes: 2_000_000 },
        { indexName: 'acme_datasetindex_v2', sizeBytes: 9_000_000 },
      ]);
      expect(entries).toEqual([
        {
          aspectName: 'queryusagestatistics',
          sizeMb: 2,
          indexName: 'acme_query_queryusagestatisticsaspect_v1',
          entityName: 'query',
          sizeInMb: 2,
        },
        { aspectName: 'operation', sizeMb: 1.5, indexName: 'acme_dataset_operationaspect_v1', entityName: 'dataset', sizeInMb: 1.5 },
      ]);
    });
  });

  describe('truncateTimeseriesAspect', () => {
    const truncate = (body: Record<string, unknown>, actor = admin) =>
      call('truncateTimeseriesAspect', { entityType: 'dataset', aspect: 'datasetProfile', ...body }, actor);

    it('dry-runs by default, with DataHub answer text byte for byte', async () => {
      await writeRange(suite.timeseries.store, 1, 1000);
      expect(await truncate({ endTimeMillis: 600 })).toBe(
        'Delete 600 out of 1000 rows (60.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute.',
      );
      expect(await truncate({ endTimeMillis: 500 })).toBe(
        'Delete 500 out of 1000 rows (50.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
      );
      expect(await truncate({ endTimeMillis: 1, forceReindex: true })).toBe(
        'Delete 1 out of 1000 rows (0.10%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute.',
      );
      expect(await truncate({ endTimeMillis: 999, forceDeleteByQuery: true, forceReindex: false })).toBe(
        'Delete 999 out of 1000 rows (99.90%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
      );
      expect(await suite.timeseries.store.countForTruncation(INDEX, 1000)).toEqual({ matching: 1000, total: 1000 });
    });

    it('reads the aspect and entity type case-insensitively; an index never written is 0 of 0', async () => {
      expect(
        await call('truncateTimeseriesAspect', { entityType: 'DataJob', aspect: 'DATAHUBINGESTIONCHECKPOINT', endTimeMillis: 5 }),
      ).toBe('Delete 0 out of 0 rows (0.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.');
    });

    it('really runs with dryRun false: answers a task id, getEsTaskStatus follows it to completion', async () => {
      await writeRange(suite.timeseries.store, 1, 1000);
      const taskId = (await truncate({ endTimeMillis: 300, dryRun: false, batchSize: 100 })) as string;
      expect(taskId).toMatch(/^[A-Za-z0-9]+:\d+$/);
      await waitForTask(suite.timeseries.store, taskId);
      const text = (await call('getEsTaskStatus', { task: taskId })) as string;
      const status = JSON.parse(text);
      expect(Object.keys(status)).toEqual(['completed', 'taskId', 'status', 'runTimeNanos']);
      expect(status).toMatchObject({ completed: true, taskId, status: { total: 300, deleted: 300, batches: 3 } });
      const { node, id } = refOf(taskId);
      expect(await call('getEsTaskStatus', { nodeId: node, taskId: id })).toBe(text);
      expect(await suite.timeseries.store.countForTruncation(INDEX, 1000)).toEqual({ matching: 700, total: 700 });
    });

    it('refuses a second truncation of an index while one runs, with 409 naming the task', async () => {
      await writeRange(suite.timeseries.store, 1, 3000);
      const running = await suite.timeseries.store.startTruncation(truncation({ endTimeMillis: 2500, rowsPerSecond: 3000 }));
      const refused = await apiError(truncate({ endTimeMillis: 10, dryRun: false }));
      expect(refused.status).toBe(409);
      expect(refused.message).toBe(
        `A truncation of ${INDEX} is already running as task ${running}; wait for it to complete (poll getEsTaskStatus) before starting another.`,
      );
      // A dry run is only a count: allowed meanwhile.
      expect(await truncate({ endTimeMillis: 2900 })).toMatch(/^Delete \d+ out of \d+ rows/);
      await waitForTask(suite.timeseries.store, running);
    });

    it('needs TRUNCATE_TIMESERIES_INDEX_PRIVILEGE, with DataHub 403 text', async () => {
      const refused = await apiError(truncate({ endTimeMillis: 1 }, actorWith(Privilege.MANAGE_SYSTEM_OPERATIONS)));
      expect([refused.status, refused.message]).toEqual([403, 'User is unauthorized to truncate timeseries index']);
      expect(await truncate({ endTimeMillis: 1 }, actorWith(Privilege.TRUNCATE_TIMESERIES_INDEX))).toMatch(/^Delete 0 out of 0/);
    });

    it.each([
      [
        { endTimeMillis: 1, forceDeleteByQuery: true, forceReindex: true },
        /^Please only set forceReindex OR forceDeleteByQuery flags \(got forceDeleteByQuery=true, forceReindex=true\)/,
      ],
      [{ endTimeMillis: 1, forceDeleteByQuery: false, forceReindex: false }, /forceDeleteByQuery=false, forceReindex=false/],
      [
        { endTimeMillis: 1, entityType: 'glossaryTerm' },
        /^Parameter 'entityType' of action 'truncateTimeseriesAspect': unknown entity type 'glossaryTerm' \(entity types with time-series aspects: dataset, dataJob, dataProcessInstance/,
      ],
      [
        { endTimeMillis: 1, aspect: 'schemaMetadata' },
        /^Parameter 'aspect' of action 'truncateTimeseriesAspect': 'schemaMetadata' is not a time-series aspect of entity type 'dataset' \(its time-series aspects: datasetProfile, datasetUsageStatistics, operation\)$/,
      ],
      [
        { endTimeMillis: 1, entityType: 'chart', aspect: 'datasetProfile' },
        /'datasetProfile' is not a time-series aspect of entity type 'chart'/,
      ],
      [{}, /^Parameter 'endTimeMillis' of action 'truncateTimeseriesAspect': is required$/],
      [{ endTimeMillis: '5' }, /^Parameter 'endTimeMillis' of action 'truncateTimeseriesAspect': must be a number$/],
      [{ endTimeMillis: 1.5 }, /^Parameter 'endTimeMillis' .*: must be an int$/],
      [{ endTimeMillis: 1, batchSize: 0 }, /^Parameter 'batchSize' of action 'truncateTimeseriesAspect': must be greater than 0/],
      [{ endTimeMillis: 1, batchSize: -5 }, /^Parameter 'batchSize'.*must be greater than 0/],
      [{ endTimeMillis: 1, timeoutSeconds: 0 }, /^Parameter 'timeoutSeconds'.*must be greater than 0/],
      [{ endTimeMillis: 1, dryRun: 'false' }, /^Parameter 'dryRun' .*: must be a boolean$/],
      [{ endTimeMillis: 1, dryrun: false }, /unknown key\(s\) 'dryrun'/],
    ])('answers 400 naming the problem for %j', async (body, message) => {
      const error = await apiError(truncate(body));
      expect(error.status).toBe(400);
      expect(error.message).toMatch(message);
    });

    it('refuses an entity type or aspect that is missing with 400', async () => {
      const error = await apiError(call('truncateTimeseriesAspect', { aspect: 'operation', endTimeMillis: 1 }));
      expect([error.status, error.message]).toEqual([400, "Parameter 'entityType' of action 'truncateTimeseriesAspect': is required"]);
    });
  });

  describe('getEsTaskStatus', () => {
    it('answers DataHub error JSON text for a task that does not exist', async () => {
      expect(await call('getEsTaskStatus', { task: 'abcDEF123:42' })).toBe('{"error":"Could not get task status for abcDEF123:42"}');
      expect(await call('getEsTaskStatus', { nodeId: 'abc-DEF_1', taskId: 7 })).toBe(
        '{"error":"Could not get task status for abc-DEF_1:7"}',
      );
    });

    it('reports a running task as not completed', async () => {
      await writeRange(suite.timeseries.store, 1, 2000);
      const taskId = await suite.timeseries.store.startTruncation(truncation({ endTimeMillis: 1500, rowsPerSecond: 3000 }));
      const status = JSON.parse((await call('getEsTaskStatus', { task: taskId })) as string);
      expect(status).toMatchObject({ completed: false, taskId });
      expect(status.status).toMatchObject({ requests_per_second: 3000 });
      await waitForTask(suite.timeseries.store, taskId);
    });

    it.each([
      [{}, 'Please specify either Node ID + task ID OR composite task parameters'],
      [{ nodeId: 'abc' }, 'Please specify either Node ID + task ID OR composite task parameters'],
      [{ nodeId: 'abc', taskId: 0 }, 'Please specify either Node ID + task ID OR composite task parameters'],
      [{ task: 'abc:1', nodeId: 'abc', taskId: 2 }, 'Please specify only one of Node ID + task ID OR composite task parameters'],
      [{ task: 'abc' }, 'Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got abc)'],
      [{ task: 'abc:0' }, 'Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got abc:0)'],
      [{ task: 'a b:1' }, 'Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got a b:1)'],
      [{ nodeId: 'no:colons', taskId: 3 }, 'Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got no:colons:3)'],
    ])('answers 400 with DataHub message for %j', async (body, message) => {
      const error = await apiError(call('getEsTaskStatus', body));
      expect([error.status, error.message]).toEqual([400, message]);
    });

    it('accepts the same task twice when both forms agree', async () => {
      expect(await call('getEsTaskStatus', { task: 'abc:5', nodeId: 'abc', taskId: 5 })).toBe(
        '{"error":"Could not get task status for abc:5"}',
      );
    });

    it('needs GET_ES_TASK_STATUS_PRIVILEGE, with DataHub 403 text', async () => {
      const refused = await apiError(call('getEsTaskStatus', { task: 'abc:1' }, actorWith(Privilege.TRUNCATE_TIMESERIES_INDEX)));
      expect([refused.status, refused.message]).toEqual([403, 'User is unauthorized to get ES task status']);
      expect(await call('getEsTaskStatus', { task: 'abc:1' }, actorWith(Privilege.GET_ES_TASK_STATUS))).toMatch(/Could not get/);
    });
  });

  it('exposes its actions under the module name timeseries, on the right resources', () => {
    expect(suite.timeseries.module.name).toBe('timeseries');
    expect(suite.timeseries.module.actions!.map((a) => `${a.resource}.${a.name}`).sort()).toEqual([
      'aspects.getTimeseriesAspectValues',
      'operations.getEsTaskStatus',
      'operations.getIndexSizes',
      'operations.truncateTimeseriesAspect',
    ]);
  });
});
