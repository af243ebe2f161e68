import { Privilege, ROLES } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { print } from 'graphql';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readUiDocuments } from '../../../../apps/server/test/webui/ui-documents';
import { SYSTEM_ACTOR } from '../../src/index';
import { errorOf, upsert } from './edit-support';
import { goldenGraphql } from './golden';

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
const VARIABLES = JSON.parse(
  readFileSync(new URL('../../../../apps/server/test/fixtures/datahub-web-react/variables.json', import.meta.url), 'utf8'),
) as Record<'queries' | 'mutations', Record<string, { variables: Record<string, unknown> }[]>>;
/** The variables of the UI's `index`th call of `name`, its placeholders filled. */
const uiVariables = (kind: 'queries' | 'mutations', name: string, placeholders: Record<string, string> = {}, index = 0) =>
  JSON.parse(JSON.stringify(VARIABLES[kind][name]![index]!.variables), (_key, value: unknown) =>
    typeof value === 'string' && value in placeholders ? placeholders[value] : value,
  ) as Record<string, any>;

let requests = 0;
const as = (id: string, privileges: Iterable<Privilege>): ApiContext => ({
  actor: { urn: `urn:li:corpuser:${id}`, privileges: new Set(privileges) },
  requestId: `ingestion-${++requests}`,
});
const admin = () => as('datahub', ROLES.find((r) => r.name === 'Admin')!.privileges);
/** The Editor role holds no MANAGE_INGESTION. */
const editor = () => as('eddie', ROLES.find((r) => r.name === 'Editor')!.privileges);
const ingester = () => as('ingrid', [Privilege.MANAGE_INGESTION]);

async function setup() {
  const api = await goldenGraphql(databases, [], { now: () => NOW });
  const ui = (name: string, variables: Record<string, unknown>, context: ApiContext = admin()) =>
    api.run(UI.get(name)!, variables, { context, operationName: name });
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
    // A system source (DataHub's own, e.g. its usage reporting) as DataHub's bootstrap writes one.
    const system = 'urn:li:dataHubIngestionSource:datahub-usage';
    await ingest(
      upsert(system, 'dataHubIngestionSourceInfo', {
        name: 'DataHub usage',
        type: 'datahub-gc',
        config: { recipe: '{}', executorId: 'default' },
        source: { type: 'SYSTEM' },
      }),
    );

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
