import { Privilege, ROLES } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { print } from 'graphql';
import { createDecipheriv, createHash, createHmac } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readUiDocuments } from '../../../../apps/server/test/webui/ui-documents';
import { SYSTEM_ACTOR } from '../../src/index';
import { errorOf, upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { uiCallVariables } from '../../../../apps/server/test/webui/ui-queries';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

// The UI's own documents of ingestion.graphql (DataHub c731e725, in apps/server/test/fixtures/datahub-web-react) with
// every fragment they use, and the variables its pages send (variables.json).
const UI = new Map(
  readUiDocuments()
    .operations.filter((op) => op.file === 'ingestion.graphql')
    .map((op) => [op.name, print(op.document)]),
);
/** What the UI does not send: getSecretValues (DataHub's executor does), a run's actorUrn. */
const OWN: Record<string, string> = {
  getSecretValues: 'query getSecretValues($input: GetSecretValuesInput!) { getSecretValues(input: $input) { name value } }',
  actorOfRun: 'query actorOfRun($urn: String!) { executionRequest(urn: $urn) { input { actorUrn actor { urn } } } }',
};
const uiVariables = uiCallVariables;

let requests = 0;
const as = (id: string, privileges: Iterable<Privilege>): ApiContext => ({
  actor: { urn: `urn:li:corpuser:${id}`, privileges: new Set(privileges) },
  requestId: `ingestion-${++requests}`,
});
const admin = () => as('datahub', ROLES.find((r) => r.name === 'Admin')!.privileges);
/** The Editor role holds no MANAGE_INGESTION. */
const editor = () => as('eddie', ROLES.find((r) => r.name === 'Editor')!.privileges);
const ingester = () => as('ingrid', [Privilege.MANAGE_INGESTION]);
const keeper = () => as('kim', [Privilege.MANAGE_SECRETS]);

let clock = NOW;
async function setup(options: { secretKey?: string } = {}) {
  clock = NOW;
  const api = await goldenGraphql(databases, [], { now: () => clock, secretKey: options.secretKey });
  const ui = (name: string, variables: Record<string, unknown>, context: ApiContext = admin()) =>
    api.run(UI.get(name) ?? OWN[name]!, variables, { context, operationName: name });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  /** Aspects written as DataHub's executor or the CLI writes them (through the service's ingest). */
  const ingest = (...items: ReturnType<typeof upsert>[]) => api.service.ingest(SYSTEM_ACTOR, items, { batch: false });
  const create = async (input: Record<string, unknown> = uiVariables('mutations', 'createIngestionSource').input, context = admin()) => {
    const created = await ui('createIngestionSource', { input }, context);
    expect(created.errors).toBeUndefined();
    return created.data!.createIngestionSource as string;
  };
  return { ...api, ui, stored, ingest, create };
}

/** A system source (DataHub's own, e.g. its usage reporting) as DataHub's bootstrap writes one. */
const SYSTEM_SOURCE = 'urn:li:dataHubIngestionSource:datahub-usage';
const systemSource = () =>
  upsert(SYSTEM_SOURCE, 'dataHubIngestionSourceInfo', {
    name: 'DataHub usage',
    type: 'datahub-gc',
    config: { recipe: '{}', executorId: 'default' },
    source: { type: 'SYSTEM' },
  });

const MYSQL_RECIPE = '{"source":{"type":"mysql","config":{"host_port":"mysql:3306"}}}';

describe("Ingestion sources, as DataHub's UpsertIngestionSourceResolver, ListIngestionSourcesResolver and IngestionSourceMapper answer them", () => {
  it('createIngestionSource stores dataHubIngestionSourceInfo and the creator as owner; getIngestionSource reads it back', async () => {
    const { ui, stored, create } = await setup();
    const urn = await create();
    expect(urn).toMatch(/^urn:li:dataHubIngestionSource:[0-9a-f-]{36}$/);
    // What UpsertIngestionSourceResolver.mapIngestionSourceInfo writes for the UI's builder output.
    expect(await stored(urn, 'dataHubIngestionSourceInfo')).toEqual({
      type: 'mysql',
      name: 'MySQL prod',
      config: { recipe: MYSQL_RECIPE, executorId: 'default', debugMode: false, extraArgs: {} },
      schedule: { interval: '0 0 * * *', timezone: 'UTC' },
    });
    expect(await stored(urn, 'ownership')).toMatchObject({
      owners: [{ owner: 'urn:li:corpuser:datahub', type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:__system__technical_owner' }],
    });

    const read = await ui('getIngestionSource', uiVariables('queries', 'getIngestionSource', { $INGESTION_SOURCE_URN: urn }));
    expect(read.errors).toBeUndefined();
    const source = read.data!.ingestionSource;
    expect(source).toMatchObject({
      urn,
      name: 'MySQL prod',
      type: 'mysql',
      config: { recipe: MYSQL_RECIPE, version: null, executorId: 'default', debugMode: false, extraArgs: [] },
      schedule: { interval: '0 0 * * *', timezone: 'UTC' },
      // IngestionSourceMapper never sets the platform.
      platform: null,
      executions: { start: 0, count: 0, total: 0, executionRequests: [] },
    });
    expect(source.ownership.owners.map((o: { owner: { urn: string } }) => o.owner.urn)).toEqual(['urn:li:corpuser:datahub']);
  });

  it('updateIngestionSource replaces the info (schedule, version, extra args), keeping the owners', async () => {
    const { ui, stored, create } = await setup();
    const urn = await create();
    const variables = uiVariables('mutations', 'updateIngestionSource', { $INGESTION_SOURCE_URN: urn });
    const updated = await ui('updateIngestionSource', variables, ingester());
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.updateIngestionSource).toBe(urn);
    expect((await stored(urn, 'dataHubIngestionSourceInfo'))!.schedule).toEqual({ interval: '0 6 * * *', timezone: 'UTC' });

    // Without a schedule the source is run by hand; version and extra arguments are kept as given.
    const input = {
      ...variables.input,
      schedule: undefined,
      config: {
        ...variables.input.config,
        version: '1.2.0',
        debugMode: true,
        extraArgs: [{ key: 'extra_pip_requirements', value: '["pymysql"]' }],
      },
    };
    expect((await ui('updateIngestionSource', { urn, input })).errors).toBeUndefined();
    expect(await stored(urn, 'dataHubIngestionSourceInfo')).toEqual({
      type: 'mysql',
      name: 'MySQL prod',
      config: {
        recipe: MYSQL_RECIPE,
        version: '1.2.0',
        executorId: 'default',
        debugMode: true,
        extraArgs: { extra_pip_requirements: '["pymysql"]' },
      },
    });
    expect(await stored(urn, 'ownership')).toMatchObject({ owners: [{ owner: 'urn:li:corpuser:datahub' }] });
    const read = await ui('getIngestionSource', { urn, runStart: 0, runCount: 10 });
    expect(read.data!.ingestionSource.schedule).toBeNull();
    expect(read.data!.ingestionSource.config.extraArgs).toEqual([{ key: 'extra_pip_requirements', value: '["pymysql"]' }]);
  });

  it('refuses a bad cron schedule, a bad time zone, an extra argument without value and an urn of another type, writing nothing', async () => {
    const { ui, stored, create } = await setup();
    const urn = await create();
    const input = uiVariables('mutations', 'createIngestionSource').input;
    const withSchedule = (interval: string, timezone = 'UTC') => ({ ...input, schedule: { interval, timezone } });
    const refused = async (variables: Record<string, unknown>, name = 'updateIngestionSource') =>
      errorOf(await ui(name, { urn, ...variables }));

    expect(await refused({ input: withSchedule('0 0 * *') })).toEqual([
      { message: 'Invalid cron schedule `0 0 * *`: a cron expression has 5 or 6 fields separated by spaces; found 4', code: 400 },
    ]);
    expect(await refused({ input: withSchedule('0 25 * * *') })).toEqual([
      { message: 'Invalid cron schedule `0 25 * * *`: the hour field "25" has 25, outside 0-23', code: 400 },
    ]);
    expect(await refused({ input: withSchedule('0 0 * * *', 'Mars/Olympus') })).toEqual([
      { message: 'Invalid timezone `Mars/Olympus`: Unknown time-zone ID: Mars/Olympus', code: 400 },
    ]);
    expect(await refused({ input: { ...input, config: { ...input.config, extraArgs: [{ key: 'k' }] } } })).toEqual([
      { message: 'extraArgs entry "k" has no value', code: 400 },
    ]);
    expect(await refused({ urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', input })).toEqual([
      { message: 'Malformed urn urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD) provided.', code: 400 },
    ]);
    expect(await refused({ input: withSchedule('0 0 * * *', 'Mars/Olympus') }, 'createIngestionSource')).toEqual([
      { message: 'Invalid timezone `Mars/Olympus`: Unknown time-zone ID: Mars/Olympus', code: 400 },
    ]);
    // Spring's forms DataHub accepts: names, steps, ranges, lists, `?`, `L`, `#`, six fields, macros.
    for (const interval of ['*/15 8-18 * JAN-MAR MON-FRI', '0 30 2 ? * SUN#1', '0 0 0 L * ?', '0 0 1,15 * *', '@daily'])
      expect(await refused({ input: withSchedule(interval, 'Europe/Paris') }), interval).toBeUndefined();
    expect((await stored(urn, 'dataHubIngestionSourceInfo'))!.schedule).toEqual({ interval: '@daily', timezone: 'Europe/Paris' });
  });

  it('listIngestionSources pages the sources by type (then name), matches the query, and applies the UI filter hiding system sources', async () => {
    const { ui, ingest, create } = await setup();
    const base = uiVariables('mutations', 'createIngestionSource').input;
    const snowflake = await create({ ...base, name: 'Warehouse', type: 'snowflake' });
    const mysql = await create();
    const bigquery = await create({ ...base, name: 'Analytics', type: 'bigquery', schedule: null });
    const system = SYSTEM_SOURCE;
    await ingest(systemSource());

    const all = await ui('listIngestionSources', uiVariables('queries', 'listIngestionSources'));
    expect(all.errors).toBeUndefined();
    expect(all.data!.listIngestionSources).toMatchObject({ start: 0, count: 4, total: 4 });
    expect(all.data!.listIngestionSources.ingestionSources.map((s: { urn: string }) => s.urn)).toEqual([
      bigquery,
      system,
      mysql,
      snowflake,
    ]);
    expect(all.data!.listIngestionSources.ingestionSources[0]).toMatchObject({
      name: 'Analytics',
      type: 'bigquery',
      schedule: null,
      executions: { total: 0, executionRequests: [] },
    });

    const hidden = await ui('listIngestionSources', uiVariables('queries', 'listIngestionSources', {}, 1));
    expect(hidden.errors).toBeUndefined();
    expect(hidden.data!.listIngestionSources.ingestionSources.map((s: { urn: string }) => s.urn)).toEqual([bigquery, mysql, snowflake]);

    const byName = await ui('listIngestionSources', { input: { start: 1, count: 1, sort: { field: 'name', sortOrder: 'DESCENDING' } } });
    expect(byName.data!.listIngestionSources).toMatchObject({ start: 1, count: 1, total: 4, ingestionSources: [{ urn: mysql }] });
    const found = await ui('listIngestionSources', { input: { query: 'ware' } });
    expect(found.data!.listIngestionSources.ingestionSources.map((s: { urn: string }) => s.urn)).toEqual([snowflake]);
    expect(errorOf(await ui('listIngestionSources', { input: { sort: { field: 'lastRun', sortOrder: 'ASCENDING' } } }))).toEqual([
      { message: 'Cannot sort ingestion sources by lastRun: only by type or name', code: 400 },
    ]);
  });

  it('deleteIngestionSource removes the source: it is read as null and listed no more', async () => {
    const { ui, stored, create } = await setup();
    const urn = await create();
    const deleted = await ui('deleteIngestionSource', { urn });
    expect(deleted.errors).toBeUndefined();
    expect(deleted.data!.deleteIngestionSource).toBe(urn);
    expect(await stored(urn, 'dataHubIngestionSourceInfo')).toBeUndefined();
    expect((await ui('getIngestionSource', { urn })).data!.ingestionSource).toBeNull();
    expect((await ui('listIngestionSources', { input: {} })).data!.listIngestionSources).toMatchObject({ total: 0, ingestionSources: [] });
  });

  it('needs MANAGE_INGESTION to list, create, update or delete (IngestionAuthUtils.canManageIngestion), with DataHub’s texts', async () => {
    const { ui, stored, create } = await setup();
    const urn = await create(undefined, ingester());
    const input = uiVariables('mutations', 'createIngestionSource').input;
    expect(errorOf(await ui('createIngestionSource', { input }, editor()))).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
    expect(errorOf(await ui('updateIngestionSource', { urn, input: { ...input, name: 'x' } }, editor()))).toEqual([
      { message: UNAUTHORIZED, code: 403 },
    ]);
    expect(errorOf(await ui('deleteIngestionSource', { urn }, editor()))).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
    expect(errorOf(await ui('listIngestionSources', { input: {} }, editor()))).toEqual([
      { message: 'You are not authorized to list ingestion sources. Please contact your DataHub administrator.', code: 403 },
    ]);
    expect((await stored(urn, 'dataHubIngestionSourceInfo'))!.name).toBe('MySQL prod');
    expect((await ui('listIngestionSources', { input: {} }, ingester())).data!.listIngestionSources.total).toBe(1);
  });
});

/** A run as DataHub's executor records it: its input when requested, its result when done. */
function run(id: string, source: string, requestedAt: number, result?: { status: string; startTimeMs: number }, actor = true) {
  const urn = `urn:li:dataHubExecutionRequest:${id}`;
  const items = [
    upsert(urn, 'dataHubExecutionRequestInput', {
      task: 'RUN_INGEST',
      args: { recipe: MYSQL_RECIPE, version: '1.2.0', debug_mode: 'false' },
      executorId: 'default',
      source: { type: 'SCHEDULED_INGESTION_SOURCE', ingestionSource: source },
      requestedAt,
      ...(actor ? { actorUrn: 'urn:li:corpuser:datahub' } : {}),
    }),
  ];
  if (result)
    items.push(
      upsert(urn, 'dataHubExecutionRequestResult', {
        ...result,
        durationMs: 4200,
        report: '~~~~ Execution Summary ~~~~',
        structuredReport: { type: 'CLI_INGEST', serializedValue: '{"source":{}}', contentType: 'application/json' },
      }),
    );
  return { urn, items };
}

describe("Ingestion runs, as DataHub's ExecutionRequestMapper, ListExecutionRequestsResolver and IngestionSourceExecutionRequestsResolver answer them", () => {
  async function withRuns() {
    const api = await setup();
    const source = await api.create();
    const first = run('first', source, NOW - 3000, { status: 'SUCCESS', startTimeMs: NOW - 2900 });
    const failed = run('failed', source, NOW - 2000, { status: 'FAILURE', startTimeMs: NOW - 1900 });
    // Recorded without an actor: the mapper falls back to who wrote the aspect.
    const pending = run('pending', source, NOW - 1000, undefined, false);
    const orphan = run('orphan', 'urn:li:dataHubIngestionSource:gone', NOW);
    await api.ingest(...first.items, ...failed.items, ...pending.items, ...orphan.items);
    return { ...api, source, first, failed, pending, orphan };
  }

  it('getIngestionExecutionRequest answers a stored run: its input (actor resolved), result and structured report', async () => {
    const { ui, first, source, pending } = await withRuns();
    const read = await ui(
      'getIngestionExecutionRequest',
      uiVariables('queries', 'getIngestionExecutionRequest', { $EXECUTION_REQUEST_URN: first.urn }),
    );
    expect(read.errors).toBeUndefined();
    // The actor is the user entity (its properties as the users' face answers them).
    expect(read.data!.executionRequest).toMatchObject({
      urn: first.urn,
      id: 'first',
      type: 'EXECUTION_REQUEST',
      input: {
        requestedAt: NOW - 3000,
        source: { type: 'SCHEDULED_INGESTION_SOURCE' },
        arguments: [
          { key: 'recipe', value: MYSQL_RECIPE },
          { key: 'version', value: '1.2.0' },
          { key: 'debug_mode', value: 'false' },
        ],
        actor: { urn: 'urn:li:corpuser:datahub', type: 'CORP_USER', username: 'datahub' },
        task: 'RUN_INGEST',
        executorId: 'default',
      },
      result: {
        status: 'SUCCESS',
        startTimeMs: NOW - 2900,
        durationMs: 4200,
        report: '~~~~ Execution Summary ~~~~',
        structuredReport: { type: 'CLI_INGEST', serializedValue: '{"source":{}}', contentType: 'application/json' },
      },
    });
    const withSource = await ui('listIngestionExecutionRequests', { input: { count: 1 } });
    expect(withSource.data!.listExecutionRequests.executionRequests[0].source).toMatchObject({ urn: source, name: 'MySQL prod' });
    const writer = await ui('actorOfRun', { urn: pending.urn });
    expect(writer.data!.executionRequest.input).toEqual({ actorUrn: SYSTEM_ACTOR.urn, actor: { urn: SYSTEM_ACTOR.urn } });
    // No run: an urn without a stored input, or of another type.
    expect((await ui('getIngestionExecutionRequest', { urn: 'urn:li:dataHubExecutionRequest:none' })).data!.executionRequest).toBeNull();
    expect((await ui('getIngestionExecutionRequest', { urn: source })).data!.executionRequest).toBeNull();
  });

  it("IngestionSource.executions pages the source's runs, latest request first; latestSuccessfulExecution is the latest that succeeded", async () => {
    const { ui, source, first, failed, pending } = await withRuns();
    const read = await ui('getIngestionSource', uiVariables('queries', 'getIngestionSource', { $INGESTION_SOURCE_URN: source }));
    expect(read.errors).toBeUndefined();
    const executions = read.data!.ingestionSource.executions;
    expect(executions).toMatchObject({ start: 0, count: 3, total: 3 });
    expect(executions.executionRequests.map((r: { urn: string }) => r.urn)).toEqual([pending.urn, failed.urn, first.urn]);
    expect(executions.executionRequests[0].result).toBeNull();
    const second = await ui('getIngestionSource', { urn: source, runStart: 1, runCount: 1 });
    expect(second.data!.ingestionSource.executions).toMatchObject({
      start: 1,
      count: 1,
      total: 3,
      executionRequests: [{ urn: failed.urn }],
    });
    // The list page shows each source's latest run.
    const listed = await ui('listIngestionSources', uiVariables('queries', 'listIngestionSources'));
    expect(listed.data!.listIngestionSources.ingestionSources[0].executions).toMatchObject({
      count: 1,
      total: 3,
      executionRequests: [{ urn: pending.urn }],
    });

    const runs = await ui('listIngestionExecutionRequests', uiVariables('queries', 'listIngestionExecutionRequests'));
    expect(runs.errors).toBeUndefined();
    const sourceOfRun = runs.data!.listExecutionRequests.executionRequests[0].source;
    expect(sourceOfRun.latestSuccessfulExecution).toMatchObject({ urn: first.urn, id: 'first', input: { task: 'RUN_INGEST' } });
  });

  it('listIngestionExecutionRequests lists the runs of stored sources (not system ones when the UI asks so), latest first', async () => {
    const { ui, ingest, source, first, failed, pending } = await withRuns();
    const system = SYSTEM_SOURCE;
    const systemRun = run('system', system, NOW + 5000, { status: 'SUCCESS', startTimeMs: NOW + 5000 });
    await ingest(systemSource(), ...systemRun.items);
    const urnsOf = (result: { data?: Record<string, any> | null }) =>
      result.data!.listExecutionRequests.executionRequests.map((r: { urn: string }) => r.urn);

    // The UI's executions tab (systemSources: false): the orphan run (its source is not stored) and the system one left out.
    const tab = await ui('listIngestionExecutionRequests', uiVariables('queries', 'listIngestionExecutionRequests'));
    expect(tab.errors).toBeUndefined();
    expect(tab.data!.listExecutionRequests).toMatchObject({ start: 0, count: 3, total: 3 });
    expect(urnsOf(tab)).toEqual([pending.urn, failed.urn, first.urn]);
    expect(urnsOf(await ui('listIngestionExecutionRequests', { input: { systemSources: true } }))).toEqual([systemRun.urn]);
    expect(urnsOf(await ui('listIngestionExecutionRequests', { input: {} }))).toEqual([systemRun.urn, pending.urn, failed.urn, first.urn]);
    // The UI's filter of one source's runs, and of a status; a sort by start time.
    const filtered = await ui('listIngestionExecutionRequests', {
      input: {
        filters: [
          { field: 'ingestionSource', values: [source] },
          { field: 'executionResultStatus', values: ['FAILURE'] },
        ],
      },
    });
    expect(urnsOf(filtered)).toEqual([failed.urn]);
    const byStart = await ui('listIngestionExecutionRequests', { input: { sort: { field: 'startTimeMs', sortOrder: 'ASCENDING' } } });
    expect(urnsOf(byStart)).toEqual([first.urn, failed.urn, systemRun.urn, pending.urn]);
    expect(errorOf(await ui('listIngestionExecutionRequests', { input: {} }, editor()))).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
  });

  it('createIngestionExecutionRequest, createTestConnectionRequest and cancelIngestionExecutionRequest refuse (mds runs no executor), writing nothing', async () => {
    const { ui, source, pending } = await withRuns();
    const total = async () => (await ui('listIngestionExecutionRequests', { input: {} })).data!.listExecutionRequests.total;
    const before = await total();

    const started = errorOf(
      await ui(
        'createIngestionExecutionRequest',
        uiVariables('mutations', 'createIngestionExecutionRequest', { $INGESTION_SOURCE_URN: source }),
      ),
    );
    expect(started).toHaveLength(1);
    expect(started![0]!.code).toBe(400);
    expect(started![0]!.message).toContain('mds runs no ingestion executor');
    expect(started![0]!.message).toContain(`config.recipe of ingestionSource(urn: "${source}")`);
    expect(started![0]!.message).toContain('`datahub ingest -c recipe.yml`');
    expect(
      errorOf(await ui('createIngestionExecutionRequest', { input: { ingestionSourceUrn: 'urn:li:dataHubIngestionSource:none' } })),
    ).toEqual([{ message: 'Failed to find ingestion source with urn urn:li:dataHubIngestionSource:none', code: 400 }]);

    const tested = errorOf(await ui('createTestConnectionRequest', { input: { recipe: MYSQL_RECIPE } }));
    expect(tested![0]).toMatchObject({ code: 400 });
    expect(tested![0]!.message).toContain('`datahub ingest -c recipe.yml --dry-run`');
    const cancelled = errorOf(
      await ui(
        'cancelIngestionExecutionRequest',
        uiVariables('mutations', 'cancelIngestionExecutionRequest', { $INGESTION_SOURCE_URN: source, $EXECUTION_REQUEST_URN: pending.urn }),
      ),
    );
    expect(cancelled![0]).toMatchObject({ code: 400 });
    expect(cancelled![0]!.message).toContain('mds runs no ingestion executor');
    expect(await total()).toBe(before);

    // Who may not manage ingestion hears DataHub's refusal first.
    for (const [name, variables] of [
      ['createIngestionExecutionRequest', { input: { ingestionSourceUrn: source } }],
      ['createTestConnectionRequest', { input: { recipe: MYSQL_RECIPE } }],
      ['cancelIngestionExecutionRequest', { input: { ingestionSourceUrn: source, executionRequestUrn: pending.urn } }],
      ['rollbackIngestion', { input: { runId: 'r' } }],
    ] as const)
      expect(errorOf(await ui(name, variables, editor())), name).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
  });
});

describe("rollbackIngestion (DataHub's RollbackIngestionResolver, then RollbackService as its entity client calls it)", () => {
  it("the UI's document rolls back the run: what it replaced restored, what it created removed; MANAGE_INGESTION asked", async () => {
    const { ui, stored, service, store } = await setup();
    const TABLE = 'urn:li:dataset:(urn:li:dataPlatform:mysql,shop.orders,PROD)';
    const VIEW = 'urn:li:dataset:(urn:li:dataPlatform:mysql,shop.orders_view,PROD)';
    const byRun = (runId: string, item: ReturnType<typeof upsert>) => ({
      ...item,
      proposal: { ...item.proposal, systemMetadata: { runId, lastObserved: NOW } },
    });
    const first = 'mysql-2024_01_01-00_00_00';
    const second = 'mysql-2024_01_02-00_00_00';
    await service.ingest(SYSTEM_ACTOR, [byRun(first, upsert(TABLE, 'datasetProperties', { name: 'orders', customProperties: {} }))], {
      batch: false,
    });
    await service.ingest(
      SYSTEM_ACTOR,
      [
        byRun(second, upsert(TABLE, 'datasetProperties', { name: 'orders v2', customProperties: {} })),
        byRun(second, upsert(VIEW, 'datasetProperties', { name: 'orders_view', customProperties: {} })),
      ],
      { batch: true },
    );
    // Who may not manage ingestion hears DataHub's refusal, and nothing moves.
    expect(errorOf(await ui('rollbackIngestion', { input: { runId: second } }, editor()))).toEqual([{ message: UNAUTHORIZED, code: 403 }]);
    expect(await stored(TABLE, 'datasetProperties')).toMatchObject({ name: 'orders v2' });

    const answer = await ui('rollbackIngestion', uiVariables('mutations', 'rollbackIngestion', { $RUN_ID: second }));
    expect(answer).toEqual({ data: { rollbackIngestion: 'true' } });
    expect(await stored(TABLE, 'datasetProperties')).toEqual({ name: 'orders', customProperties: {} });
    expect(await store.exists(VIEW)).toBe(false);
    const read = await ui('rollbackIngestion', { input: { runId: 'no-run-id-provided' } });
    expect(errorOf(read)![0]!.code).toBe(400);
  });
});

const KEY = 'a-test-only-secret-service-key';
/** Decrypts a stored value the way DataHub's SecretService does (v2: base64 of IV, ciphertext, GCM tag), written out here. */
function decryptAsDataHub(stored: string, secret: string): string {
  expect(stored.startsWith('v2:')).toBe(true);
  const bytes = Buffer.from(stored.slice(3), 'base64');
  const key = createHmac('sha256', createHash('sha256').update(secret).digest()).update('DataHub-AES-GCM-Key').digest();
  const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
}

describe("Secrets, as DataHub's CreateSecretResolver, UpdateSecretResolver, ListSecretsResolver and GetSecretValuesResolver keep them", () => {
  const SECRET = 'urn:li:dataHubSecret:MYSQL_PASSWORD';

  it('createSecret stores the value encrypted as SecretService does; listSecrets never answers it; getSecretValues decrypts it', async () => {
    const { ui, stored } = await setup({ secretKey: KEY });
    const created = await ui('createSecret', uiVariables('mutations', 'createSecret'), keeper());
    expect(created.errors).toBeUndefined();
    expect(created.data!.createSecret).toBe(SECRET);
    const value = await stored(SECRET, 'dataHubSecretValue');
    expect(value).toEqual({
      name: 'MYSQL_PASSWORD',
      value: expect.stringMatching(/^v2:/),
      description: 'prod replica',
      created: { actor: 'urn:li:corpuser:kim', time: NOW },
    });
    expect(JSON.stringify(value)).not.toContain('s3cret');
    expect(decryptAsDataHub(value!.value as string, KEY)).toBe('s3cret');

    const listed = await ui('listSecrets', uiVariables('queries', 'listSecrets'));
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.listSecrets).toEqual({
      start: 0,
      count: 1,
      total: 1,
      secrets: [{ urn: SECRET, name: 'MYSQL_PASSWORD', description: 'prod replica' }],
    });
    expect(JSON.stringify(listed)).not.toContain('s3cret');

    const values = await ui('getSecretValues', { input: { secrets: ['MYSQL_PASSWORD', 'NOT_STORED'] } }, keeper());
    expect(values.errors).toBeUndefined();
    expect(values.data!.getSecretValues).toEqual([{ name: 'MYSQL_PASSWORD', value: 's3cret' }]);
    expect(errorOf(await ui('createSecret', uiVariables('mutations', 'createSecret')))).toEqual([
      { message: 'This Secret already exists!', code: 400 },
    ]);
  });

  it('updateSecret re-encrypts the new value and keeps the created stamp; deleteSecret removes the secret', async () => {
    const { ui, stored } = await setup({ secretKey: KEY });
    await ui('createSecret', uiVariables('mutations', 'createSecret'));
    clock = NOW + 1000;
    const updated = await ui('updateSecret', uiVariables('mutations', 'updateSecret', { $SECRET_URN: SECRET }));
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.updateSecret).toBe(SECRET);
    const value = await stored(SECRET, 'dataHubSecretValue');
    expect(value).toMatchObject({
      name: 'MYSQL_PASSWORD',
      description: 'prod replica',
      created: { actor: 'urn:li:corpuser:datahub', time: NOW },
    });
    expect(decryptAsDataHub(value!.value as string, KEY)).toBe('n3w-s3cret');
    expect(errorOf(await ui('updateSecret', { input: { urn: 'urn:li:dataHubSecret:NONE', name: 'NONE', value: 'x' } }))).toEqual([
      { message: "Secret for urn urn:li:dataHubSecret:NONE doesn't exists!", code: 400 },
    ]);

    const deleted = await ui('deleteSecret', { urn: SECRET });
    expect(deleted.data!.deleteSecret).toBe(SECRET);
    expect(await stored(SECRET, 'dataHubSecretValue')).toBeUndefined();
    expect((await ui('listSecrets', { input: {} })).data!.listSecrets).toMatchObject({ total: 0, secrets: [] });
    expect((await ui('getSecretValues', { input: { secrets: ['MYSQL_PASSWORD'] } })).data!.getSecretValues).toEqual([]);
  });

  it('listSecrets pages the newest first and matches names', async () => {
    const { ui } = await setup({ secretKey: KEY });
    for (const [i, name] of ['SNOWFLAKE_PASSWORD', 'MYSQL_PASSWORD', 'LOOKER_TOKEN'].entries()) {
      clock = NOW + i;
      expect((await ui('createSecret', { input: { name, value: `v${i}` } })).errors).toBeUndefined();
    }
    const names = async (input: Record<string, unknown>) =>
      (await ui('listSecrets', { input })).data!.listSecrets.secrets.map((s: { name: string }) => s.name);
    expect(await names({})).toEqual(['LOOKER_TOKEN', 'MYSQL_PASSWORD', 'SNOWFLAKE_PASSWORD']);
    expect(await names({ start: 1, count: 1 })).toEqual(['MYSQL_PASSWORD']);
    expect(await names({ query: 'password' })).toEqual(['MYSQL_PASSWORD', 'SNOWFLAKE_PASSWORD']);
  });

  it('without a secret key, storing or reading a value is refused (nothing written); listing still works', async () => {
    const { ui, stored } = await setup();
    const noKey = [
      {
        message:
          "This server has no secret key: set SECRET_SERVICE_ENCRYPTION_KEY (to the key of the DataHub whose secrets it holds, so DataHub's executor can read them) to store or read secrets.",
        code: 400,
      },
    ];
    expect(errorOf(await ui('createSecret', uiVariables('mutations', 'createSecret')))).toEqual(noKey);
    expect(await stored(SECRET, 'dataHubSecretValue')).toBeUndefined();
    expect(errorOf(await ui('updateSecret', uiVariables('mutations', 'updateSecret', { $SECRET_URN: SECRET })))).toEqual(noKey);
    expect(errorOf(await ui('getSecretValues', { input: { secrets: ['MYSQL_PASSWORD'] } }))).toEqual(noKey);
    expect((await ui('listSecrets', uiVariables('queries', 'listSecrets'))).data!.listSecrets).toMatchObject({ total: 0 });
  });

  it('needs MANAGE_SECRETS for every secret query and mutation (IngestionAuthUtils.canManageSecrets)', async () => {
    const { ui, stored } = await setup({ secretKey: KEY });
    await ui('createSecret', uiVariables('mutations', 'createSecret'));
    const refused = [{ message: UNAUTHORIZED, code: 403 }];
    // MANAGE_INGESTION alone is not enough.
    for (const context of [editor(), ingester()]) {
      expect(errorOf(await ui('createSecret', { input: { name: 'OTHER', value: 'x' } }, context))).toEqual(refused);
      expect(errorOf(await ui('updateSecret', uiVariables('mutations', 'updateSecret', { $SECRET_URN: SECRET }), context))).toEqual(
        refused,
      );
      expect(errorOf(await ui('deleteSecret', { urn: SECRET }, context))).toEqual(refused);
      expect(errorOf(await ui('listSecrets', { input: {} }, context))).toEqual(refused);
      expect(errorOf(await ui('getSecretValues', { input: { secrets: ['MYSQL_PASSWORD'] } }, context))).toEqual(refused);
    }
    expect(decryptAsDataHub((await stored(SECRET, 'dataHubSecretValue'))!.value as string, KEY)).toBe('s3cret');
    expect(await stored('urn:li:dataHubSecret:OTHER', 'dataHubSecretValue')).toBeUndefined();
  });
});
