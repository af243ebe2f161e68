import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startMds, type Mds } from './support/mds';

// Every Rest.li action mds serves takes exactly the @ActionParams DataHub declares for it, optional ones included.
// The names below are facts read from DataHub's resources at commit c731e725ff4293ef783eed998b135612d8a13218:
// metadata-service/restli-servlet-impl/src/main/java/com/linkedin/metadata/resources/entity/EntityResource.java,
// entity/AspectResource.java and operations/OperationsResource.java (`required`: no @Optional). Each parameter is sent
// with a value DataHub would take, beside the required ones, and must be accepted; a name DataHub does not declare is
// a 400 naming it.

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,params.orders,PROD)';
const TAG = 'urn:li:tag:params';
const proposal = {
  entityType: 'tag',
  entityUrn: TAG,
  changeType: 'UPSERT',
  aspectName: 'tagProperties',
  aspect: { contentType: 'application/json', value: JSON.stringify({ name: 'params' }) },
};
const snapshot = {
  value: {
    'com.linkedin.metadata.snapshot.TagSnapshot': { urn: TAG, aspects: [{ 'com.linkedin.tag.TagProperties': { name: 'params' } }] },
  },
};
const systemMetadata = { runId: 'params', lastObserved: 1 };
const filter = { or: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] };
const sort = { field: 'urn', order: 'ASCENDING' };
const searchFlags = { skipAggregates: true };

interface DataHubAction {
  resource: 'aspects' | 'entities' | 'operations' | 'runs';
  action: string;
  /** DataHub's required parameters, each with a value. */
  required: Record<string, unknown>;
  /** DataHub's optional parameters, each with a value; `with`: what else that value needs to be sent with. */
  optional: Record<string, unknown>;
  with?: Record<string, Record<string, unknown>>;
}

const DATAHUB_ACTIONS: DataHubAction[] = [
  { resource: 'aspects', action: 'ingestProposal', required: { proposal }, optional: { async: 'false' } },
  { resource: 'aspects', action: 'ingestProposalBatch', required: { proposals: [proposal] }, optional: { async: 'false' } },
  {
    resource: 'aspects',
    action: 'getTimeseriesAspectValues',
    required: { urn: DATASET, entity: 'dataset', aspect: 'datasetProfile' },
    optional: {
      startTimeMillis: 0,
      endTimeMillis: 2_000_000_000_000,
      limit: 10,
      latestValue: false,
      filter,
      sort: { field: 'timestampMillis', order: 'DESCENDING' },
    },
  },
  { resource: 'entities', action: 'ingest', required: { entity: snapshot }, optional: { systemMetadata } },
  { resource: 'entities', action: 'batchIngest', required: { entities: [snapshot] }, optional: { systemMetadata: [systemMetadata] } },
  { resource: 'entities', action: 'exists', required: { urn: TAG }, optional: { includeSoftDelete: true } },
  {
    resource: 'entities',
    action: 'delete',
    required: { urn: DATASET },
    optional: { aspectName: 'datasetProfile', startTimeMillis: 0, endTimeMillis: 1 },
  },
  {
    resource: 'entities',
    action: 'search',
    required: { entity: 'dataset', input: '*', start: 0, count: 10 },
    optional: { filter, sort, sortCriteria: [sort], fulltext: true, searchFlags },
  },
  {
    resource: 'entities',
    action: 'searchAcrossEntities',
    required: { input: '*', start: 0, count: 10 },
    optional: { entities: ['dataset'], filter, sort, sortCriteria: [sort], searchFlags },
  },
  {
    resource: 'entities',
    action: 'list',
    required: { entity: 'dataset', start: 0, count: 10 },
    optional: { filter, sort, sortCriteria: [sort] },
  },
  {
    resource: 'entities',
    action: 'autocomplete',
    required: { entity: 'dataset', query: 'ord', limit: 5 },
    optional: { field: 'name', filter, searchFlags },
  },
  {
    resource: 'entities',
    action: 'browse',
    required: { entity: 'dataset', path: '/', start: 0, limit: 10 },
    optional: { filter, searchFlags },
  },
  { resource: 'operations', action: 'getIndexSizes', required: {}, optional: {} },
  {
    resource: 'operations',
    action: 'truncateTimeseriesAspect',
    required: { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 0 },
    optional: { dryRun: true, batchSize: 100, timeoutSeconds: 10, forceDeleteByQuery: true, forceReindex: true },
  },
  {
    resource: 'operations',
    action: 'getEsTaskStatus',
    required: {},
    optional: { nodeId: 'aB1cdEf2GHIJKLMnoPQr3S', taskId: 123456, task: 'aB1cdEf2GHIJKLMnoPQr3S:123456' },
    with: { nodeId: { taskId: 123456 }, taskId: { nodeId: 'aB1cdEf2GHIJKLMnoPQr3S' } },
  },
  // BatchIngestionRunResource.rollback, on a run that wrote nothing here (the other actions' writes are run 'params').
  {
    resource: 'runs',
    action: 'rollback',
    required: { runId: 'params-rollback' },
    optional: { dryRun: true, hardDelete: false, safe: true },
  },
];

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(() => mds?.close());

const key = (resource: string, action: string) => `${resource}?action=${action}`;

describe("Rest.li actions take DataHub's @ActionParams", () => {
  it('every action mds serves is listed, with exactly DataHub’s parameter names', () => {
    const served = mds.domains.modules.flatMap((module) => module.actions ?? []);
    const names = (action: (typeof served)[number]) => Object.keys((action.params as z.ZodObject).shape).sort();
    expect(Object.fromEntries(served.map((action) => [key(action.resource, action.name), names(action)]))).toEqual(
      Object.fromEntries(
        DATAHUB_ACTIONS.map((a) => [key(a.resource, a.action), [...Object.keys(a.required), ...Object.keys(a.optional)].sort()]),
      ),
    );
  });

  it.each(DATAHUB_ACTIONS)('$resource?action=$action accepts each of DataHub’s parameters and refuses another', async (spec) => {
    for (const [name, value] of Object.entries(spec.optional)) {
      const { status, body } = await mds.post(`/${key(spec.resource, spec.action)}`, {
        ...spec.required,
        ...spec.with?.[name],
        [name]: value,
      });
      expect([name, status, body?.message]).toEqual([name, 200, undefined]);
    }
    const { status, body } = await mds.post(`/${key(spec.resource, spec.action)}`, { ...spec.required, notADataHubParameter: 1 });
    expect([status, body.message]).toEqual([400, `Body of action '${spec.action}': unknown key(s) 'notADataHubParameter'`]);
  });
});
