import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Privilege } from '@mds/auth';
import type { Actor } from '@mds/schema';
import { SYSTEM_ACTOR, type PointsRequest } from '../../src/index';
import { context, goldenGraphql, goldenItems } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's cypress sample (cypress_data.json): a Great Expectations assertion on each of these datasets, one run each.
const CHECKED = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleCypressHdfsAssertionDataset,PROD)';
const CHECK = 'urn:li:assertion:358c683782c93c2fc2bd4bdd4fdb0154';
const HEALTH_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,cypress_health_test,PROD)';
const HEALTH_CHECK = 'urn:li:assertion:358c683782c93c2fc2bd4bdd4fdb0153';
const CHART = 'urn:li:chart:(looker,cypress_baz1)';

const KEPT = new Set([CHECKED, CHECK, HEALTH_DATASET, HEALTH_CHECK, CHART, 'urn:li:incident:test']);

type Point = Record<string, unknown> & { timestampMillis: number; assertionUrn: string };

/** The sample's assertionRunEvent points (and any added), read as the time-series store reads them: newest first. */
function pointStore() {
  const points: Point[] = goldenItems('cypress_data.json').flatMap((item) => {
    const { aspectName, aspect } = item as { aspectName?: string; aspect?: { value: string } };
    return aspectName === 'assertionRunEvent' && aspect ? [JSON.parse(aspect.value) as Point] : [];
  });
  const read = async (request: PointsRequest) =>
    points
      .filter((p) => request.aspect === 'assertionRunEvent' && p.assertionUrn === request.urn)
      .filter((p) => (request.startTimeMillis ?? 0) <= p.timestampMillis && p.timestampMillis <= (request.endTimeMillis ?? Infinity))
      .sort((a, b) => b.timestampMillis - a.timestampMillis)
      .slice(0, request.limit);
  return { points, read };
}

async function setup() {
  const store = pointStore();
  const golden = await goldenGraphql(databases, ['cypress_data.json'], {
    // The assets and assertions used here, without their time-series aspects (read through `points`).
    keep: (urn, aspect) =>
      KEPT.has(urn) && !['assertionRunEvent', 'operation', 'datasetProfile', 'datasetUsageStatistics'].includes(aspect),
    points: store.read,
  });
  return { ...golden, store };
}

const ASSERTION = `query getAssertion($urn: String!) {
  assertion(urn: $urn) {
    urn type
    platform { urn name }
    dataPlatformInstance { urn }
    info {
      type description externalUrl lastUpdated { time actor }
      datasetAssertion {
        datasetUrn scope aggregation operator
        parameters { value { value type } minValue { value type } maxValue { value type } }
        fields { urn path }
        nativeType nativeParameters { key value } logic
      }
      freshnessAssertion { type }
      source { type }
    }
    actions { onSuccess { type } onFailure { type } }
    status { removed }
    runEvents(status: COMPLETE, limit: 1) {
      total failed succeeded errored
      runEvents {
        timestampMillis lastObservedMillis assertionUrn asserteeUrn status runId
        runtimeContext { key value }
        partitionSpec { type partition }
        batchSpec { nativeBatchId limit customProperties { key value } }
        result { type actualAggValue rowCount missingCount unexpectedCount externalUrl nativeResults { key value } error { type } }
      }
    }
  }
}`;

describe("Assertion, as DataHub's AssertionMapper and AssertionRunEventMapper give it", () => {
  it('answers a stored assertion from its assertionInfo and its run events from the assertionRunEvent points', async () => {
    const { query } = await setup();
    const { assertion } = await query(ASSERTION, { urn: CHECK });
    expect(assertion).toEqual({
      urn: CHECK,
      type: 'ASSERTION',
      // No dataPlatformInstance stored: DataHub's unknown platform.
      platform: { urn: 'urn:li:dataPlatform:unknown', name: 'unknown' },
      dataPlatformInstance: null,
      info: {
        type: 'DATASET',
        description: null,
        externalUrl: null,
        lastUpdated: null,
        datasetAssertion: {
          datasetUrn: CHECKED,
          scope: 'DATASET_COLUMN',
          aggregation: 'IDENTITY',
          operator: 'EQUAL_TO',
          parameters: { value: { value: 'true', type: 'UNKNOWN' }, minValue: null, maxValue: null },
          fields: [{ urn: `urn:li:schemaField:(${CHECKED},field_foo)`, path: 'field_foo' }],
          nativeType: 'expect_column_values_to_equal',
          nativeParameters: [
            { key: 'column', value: 'field_foo' },
            { key: 'value', value: 'true' },
          ],
          logic: null,
        },
        freshnessAssertion: null,
        source: null,
      },
      actions: null,
      status: null,
      runEvents: {
        total: 1,
        failed: 0,
        succeeded: 1,
        errored: 0,
        runEvents: [
          {
            timestampMillis: 1675155843000,
            lastObservedMillis: null,
            assertionUrn: CHECK,
            asserteeUrn: CHECKED,
            status: 'COMPLETE',
            runId: '2021-12-28T12:00:00Z',
            runtimeContext: null,
            partitionSpec: { type: 'PARTITION', partition: '{"category": "catA"}' },
            batchSpec: {
              nativeBatchId: 'c8f12129f2e57412eee5fb8656154d05',
              limit: 10,
              customProperties: [
                { key: 'data_asset_name', value: 'data__foo1__asset' },
                { key: 'datasource_name', value: 'my_hive_datasource' },
              ],
            },
            result: {
              type: 'SUCCESS',
              actualAggValue: null,
              rowCount: null,
              missingCount: null,
              unexpectedCount: null,
              externalUrl: null,
              nativeResults: [],
              error: null,
            },
          },
        ],
      },
    });
  });

  it('counts runs by result, narrows them by time window and limit, and refuses a limit below 1', async () => {
    const { query, run, store } = await setup();
    const at = (timestampMillis: number, type: string) => ({
      timestampMillis,
      runId: String(timestampMillis),
      assertionUrn: CHECK,
      asserteeUrn: CHECKED,
      status: 'COMPLETE',
      result: { type },
    });
    store.points.push(at(1700000000000, 'FAILURE'), at(1700000001000, 'ERROR'), at(1700000002000, 'FAILURE'));
    const runs = `query($urn: String!, $start: Long, $end: Long, $limit: Int) { assertion(urn: $urn) {
      runEvents(status: COMPLETE, startTimeMillis: $start, endTimeMillis: $end, limit: $limit) { total failed succeeded errored runEvents { timestampMillis } }
    } }`;
    const all = await query(runs, { urn: CHECK });
    expect(all.assertion.runEvents).toMatchObject({ total: 4, failed: 2, succeeded: 1, errored: 1 });
    expect(all.assertion.runEvents.runEvents.map((r: { timestampMillis: number }) => r.timestampMillis)).toEqual([
      1700000002000, 1700000001000, 1700000000000, 1675155843000,
    ]);
    const window = await query(runs, { urn: CHECK, start: 1700000000500, end: 1700000001500 });
    expect(window.assertion.runEvents).toMatchObject({ total: 1, errored: 1, runEvents: [{ timestampMillis: 1700000001000 }] });
    const filtered = await query(
      `{ assertion(urn: "${CHECK}") { runEvents(filter: { and: [{ field: "result.type", values: ["FAILURE"] }] }, limit: 1) { total failed } } }`,
    );
    expect(filtered.assertion.runEvents).toEqual({ total: 1, failed: 1 });
    const bad = await run(runs, { urn: CHECK, limit: 0 });
    expect(bad.errors?.map((e) => e.extensions?.code)).toEqual([400]);
  });

  it('answers null for an assertion not stored and for a urn of another type', async () => {
    const { query } = await setup();
    expect(await query(`{ assertion(urn: "urn:li:assertion:missing") { urn } }`)).toEqual({ assertion: null });
    expect(await query(`{ assertion(urn: "${CHECKED}") { urn } }`)).toEqual({ assertion: null });
  });

  it('reads the other kinds of assertion as DataHub maps them (entity as entityUrn, schema fields, custom field refs)', async () => {
    const { entities, query } = await setup();
    const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, ['urn:li:assertion:fresh', 'urn:li:assertion:custom'], []);
    await entities.service.write(grant, [
      {
        urn: 'urn:li:assertion:fresh',
        aspect: 'assertionInfo',
        changeType: 'UPSERT',
        value: {
          type: 'FRESHNESS',
          freshnessAssertion: {
            type: 'DATASET_CHANGE',
            entity: CHECKED,
            schedule: { type: 'CRON', cron: { cron: '0 * * * *', timezone: 'UTC' } },
          },
          source: { type: 'EXTERNAL', created: { time: 5, actor: 'urn:li:corpuser:jdoe' } },
        },
      },
      {
        urn: 'urn:li:assertion:fresh',
        aspect: 'dataPlatformInstance',
        changeType: 'UPSERT',
        value: { platform: 'urn:li:dataPlatform:dbt' },
      },
      {
        urn: 'urn:li:assertion:fresh',
        aspect: 'assertionActions',
        changeType: 'UPSERT',
        value: { onSuccess: [], onFailure: [{ type: 'RAISE_INCIDENT' }] },
      },
      {
        urn: 'urn:li:assertion:custom',
        aspect: 'assertionInfo',
        changeType: 'UPSERT',
        value: {
          type: 'CUSTOM',
          description: 'rows are unique',
          customAssertion: {
            type: 'uniqueness',
            entity: CHECKED,
            field: `urn:li:schemaField:(${CHECKED},id)`,
            logic: 'count(distinct id)',
          },
        },
      },
    ]);
    const fresh = await query(`{ assertion(urn: "urn:li:assertion:fresh") {
      platform { urn } actions { onSuccess { type } onFailure { type } }
      info { type source { type created { time actor } } freshnessAssertion { type entityUrn schedule { type cron { cron timezone windowStartOffsetMs } fixedInterval { unit } } filter { sql } } }
    } }`);
    expect(fresh.assertion).toEqual({
      platform: { urn: 'urn:li:dataPlatform:dbt' },
      actions: { onSuccess: [], onFailure: [{ type: 'RAISE_INCIDENT' }] },
      info: {
        type: 'FRESHNESS',
        source: { type: 'EXTERNAL', created: { time: 5, actor: 'urn:li:corpuser:jdoe' } },
        freshnessAssertion: {
          type: 'DATASET_CHANGE',
          entityUrn: CHECKED,
          schedule: { type: 'CRON', cron: { cron: '0 * * * *', timezone: 'UTC', windowStartOffsetMs: null }, fixedInterval: null },
          filter: null,
        },
      },
    });
    const custom = await query(
      `{ assertion(urn: "urn:li:assertion:custom") { info { type description customAssertion { type entityUrn field { urn path } logic } } } }`,
    );
    expect(custom.assertion.info).toEqual({
      type: 'CUSTOM',
      description: 'rows are unique',
      customAssertion: {
        type: 'uniqueness',
        entityUrn: CHECKED,
        field: { urn: `urn:li:schemaField:(${CHECKED},id)`, path: 'id' },
        logic: 'count(distinct id)',
      },
    });
  });
});

describe("Dataset.assertions, as DataHub's EntityAssertionsResolver lists them", () => {
  it('lists the assertions whose Asserts edge names the dataset, leaving out soft-deleted ones unless asked', async () => {
    const { entities, query, run } = await setup();
    // Each read a request of its own (a request's reads are cached for its length).
    const read = async (variables: Record<string, unknown>) =>
      (await run(list, variables, { context: { ...context } })).data!.dataset.assertions;
    const list = `query($urn: String!, $soft: Boolean) { dataset(urn: $urn) { assertions(start: 0, count: 1000, includeSoftDeleted: $soft) { start count total assertions { urn info { type } } } } }`;
    expect((await query(list, { urn: CHECKED })).dataset.assertions).toEqual({
      start: 0,
      count: 1,
      total: 1,
      assertions: [{ urn: CHECK, info: { type: 'DATASET' } }],
    });
    const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, [CHECK], []);
    await entities.service.write(grant, [{ urn: CHECK, aspect: 'status', changeType: 'UPSERT', value: { removed: true } }]);
    expect((await read({ urn: CHECKED })).assertions).toEqual([]);
    expect((await read({ urn: CHECKED, soft: true })).assertions).toEqual([{ urn: CHECK, info: { type: 'DATASET' } }]);
  });
});

describe("health, as DataHub's EntityHealthResolver computes it", () => {
  const HEALTH = `query($urn: String!) { entity(urn: $urn) { ... on Dataset { health { type status message reportedAt causes
    activeIncidentHealthDetails { latestIncidentUrn latestIncidentTitle lastActivityAt count } } } ... on Chart { health { type status message } } } }`;

  it('fails on an active incident, and on an assertion whose latest completed run failed (the sample)', async () => {
    const { query } = await setup();
    const { entity } = await query(HEALTH, { urn: HEALTH_DATASET });
    expect(entity.health).toEqual([
      {
        type: 'INCIDENTS',
        status: 'FAIL',
        message: '1 active incident',
        reportedAt: 1692301854919,
        causes: ['ACTIVE_INCIDENTS'],
        activeIncidentHealthDetails: {
          latestIncidentUrn: 'urn:li:incident:test',
          latestIncidentTitle: 'test',
          lastActivityAt: 1692301854919,
          count: 1,
        },
      },
      {
        type: 'ASSERTIONS',
        status: 'FAIL',
        message: '1 of 1 assertions are failing',
        reportedAt: null,
        causes: [HEALTH_CHECK],
        activeIncidentHealthDetails: null,
      },
    ]);
  });

  it('passes once the latest run succeeded and no incident is active; a chart without either has the incidents badge only', async () => {
    const { query, store, entities } = await setup();
    store.points.push({
      timestampMillis: 1700000000000,
      runId: 'late',
      assertionUrn: HEALTH_CHECK,
      asserteeUrn: HEALTH_DATASET,
      status: 'COMPLETE',
      result: { type: 'SUCCESS' },
    });
    const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, ['urn:li:incident:test'], []);
    await entities.service.update(grant, { urn: 'urn:li:incident:test', aspect: 'incidentInfo' }, (info) => ({
      ...info,
      status: { state: 'RESOLVED', lastUpdated: { time: 1, actor: 'urn:li:corpuser:admin' } },
    }));
    const { entity } = await query(HEALTH, { urn: HEALTH_DATASET });
    expect(
      entity.health.map((h: { type: string; status: string; message: string | null; causes: string[] | null }) => [
        h.type,
        h.status,
        h.message,
        h.causes,
      ]),
    ).toEqual([
      ['INCIDENTS', 'PASS', null, null],
      ['ASSERTIONS', 'PASS', 'All assertions are passing', null],
    ]);
    // A chart with no incident and no assertion: only the passing incidents badge.
    expect((await query(HEALTH, { urn: CHART })).entity).toEqual({ health: [{ type: 'INCIDENTS', status: 'PASS', message: null }] });
  });
});

describe("assertion edits, as DataHub's UpsertCustomAssertionResolver, DeleteAssertionResolver and ReportAssertionResultResolver make them", () => {
  const editor: Actor = { urn: 'urn:li:corpuser:editor', privileges: new Set([Privilege.EDIT_ENTITY_ASSERTIONS]) };
  const viewer: Actor = { urn: 'urn:li:corpuser:viewer', privileges: new Set([Privilege.VIEW_ENTITY_PAGE]) };
  const as = (actor: Actor) => ({ context: { actor, requestId: `${actor.urn}-${Math.random()}` } });
  const UPSERT = `mutation upsert($urn: String, $input: UpsertCustomAssertionInput!) {
    upsertCustomAssertion(urn: $urn, input: $input) { urn platform { urn } info { type description externalUrl source { type } customAssertion { type entityUrn field { urn path } logic } } }
  }`;
  // The UI's document (assertion.graphql) and the variables its page sends (variables.json).
  const DELETE = 'mutation deleteAssertion($urn: String!) { deleteAssertion(urn: $urn) }';
  const custom = {
    entityUrn: CHECKED,
    type: 'dbt test',
    description: 'ids are unique',
    platform: { name: 'dbt' },
    fieldPath: 'id',
    logic: 'unique(id)',
  };
  const aspectsOf = async (service: Awaited<ReturnType<typeof setup>>['service'], urn: string) =>
    (await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], ['assertionInfo', 'dataPlatformInstance'])).get(urn);

  it('upsertCustomAssertion writes a CUSTOM, EXTERNAL assertionInfo and the platform, and answers the assertion; the dataset lists it', async () => {
    const { run, service } = await setup();
    const created = await run(UPSERT, { input: custom }, as(editor));
    expect(created.errors).toBeUndefined();
    const urn = created.data!.upsertCustomAssertion.urn as string;
    expect(urn).toMatch(/^urn:li:assertion:[0-9a-f-]{36}$/);
    expect(created.data!.upsertCustomAssertion).toEqual({
      urn,
      platform: { urn: 'urn:li:dataPlatform:dbt' },
      info: {
        type: 'CUSTOM',
        description: 'ids are unique',
        externalUrl: null,
        source: { type: 'EXTERNAL' },
        customAssertion: {
          type: 'dbt test',
          entityUrn: CHECKED,
          field: { urn: `urn:li:schemaField:(${CHECKED},id)`, path: 'id' },
          logic: 'unique(id)',
        },
      },
    });
    const stored = await aspectsOf(service, urn);
    expect(stored?.get('assertionInfo')?.value).toEqual({
      type: 'CUSTOM',
      description: 'ids are unique',
      source: { type: 'EXTERNAL' },
      customAssertion: { type: 'dbt test', entity: CHECKED, logic: 'unique(id)', field: `urn:li:schemaField:(${CHECKED},id)` },
    });
    expect(stored?.get('dataPlatformInstance')?.value).toEqual({ platform: 'urn:li:dataPlatform:dbt' });
    const listed = await run(`{ dataset(urn: "${CHECKED}") { assertions { total assertions { urn } } } }`, {}, as(editor));
    expect(listed.data!.dataset.assertions.assertions).toContainEqual({ urn });
    // Upserting the same urn replaces it.
    const again = await run(UPSERT, { urn, input: { ...custom, description: 'still unique', fieldPath: null } }, as(editor));
    expect(again.data!.upsertCustomAssertion.info.customAssertion.field).toBeNull();
    expect((await aspectsOf(service, urn))?.get('assertionInfo')?.value.description).toBe('still unique');
  });

  it('deleteAssertion removes the assertion (its Asserts edge too); an absent one answers true', async () => {
    const { run } = await setup();
    expect(await run(DELETE, { urn: CHECK }, as(editor))).toEqual({ data: { deleteAssertion: true } });
    expect((await run(`{ assertion(urn: "${CHECK}") { urn } }`, {}, as(editor))).data).toEqual({ assertion: null });
    const listed = await run(`{ dataset(urn: "${CHECKED}") { assertions { total assertions { urn } } } }`, {}, as(editor));
    expect(listed.data!.dataset.assertions).toEqual({ total: 0, assertions: [] });
    expect(await run(DELETE, { urn: CHECK }, as(editor))).toEqual({ data: { deleteAssertion: true } });
  });

  it('refuses an actor without EDIT_ENTITY_ASSERTIONS on the asset, and bad input; nothing changes', async () => {
    const { run, service } = await setup();
    const forbidden = ['Unauthorized to perform this action. Please contact your DataHub administrator.', 403];
    const errors = async (document: string, variables: Record<string, unknown>, actor: Actor) =>
      (await run(document, variables, as(actor))).errors?.map((e) => [e.message, e.extensions?.code]);
    expect(await errors(DELETE, { urn: CHECK }, viewer)).toEqual([forbidden]);
    expect(await errors(UPSERT, { input: custom }, viewer)).toEqual([forbidden]);
    expect(await errors(UPSERT, { urn: CHECK, input: custom }, viewer)).toEqual([forbidden]);
    expect((await aspectsOf(service, CHECK))?.get('assertionInfo')?.value.type).toBe('DATASET');
    expect(await errors(UPSERT, { input: { ...custom, platform: {} } }, editor)).toEqual([
      ['Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified.', 400],
    ]);
    const report = 'mutation($urn: String!) { reportAssertionResult(urn: $urn, result: { type: SUCCESS }) }';
    expect(await errors(report, { urn: 'urn:li:assertion:missing' }, editor)).toEqual([
      [
        'Failed to report Assertion Run Event. Assertion with urn urn:li:assertion:missing does not exist or is not associated with any entity.',
        400,
      ],
    ]);
    expect(await errors(report, { urn: CHECK }, viewer)).toEqual([forbidden]);
    // This package's service has no time-series store: the run cannot be kept, and says so (the server's test writes it).
    expect((await errors(report, { urn: CHECK }, editor))?.[0]?.[1]).toBe(422);
  });
});
