import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Privilege } from '@mds/auth';
import type { Actor } from '@mds/schema';
import { SYSTEM_ACTOR } from '../../src/index';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's cypress sample raises urn:li:incident:test on this dataset (cypress_data.json).
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,cypress_health_test,PROD)';
const SAMPLE = 'urn:li:incident:test';
const LATE = 'urn:li:incident:late';
const RESOLVED = 'urn:li:incident:resolved';
const stamp = (time: number) => ({ time, actor: 'urn:li:corpuser:admin' });

// The fields of the UI's incidentsFields (incident.graphql) that mds declares so far, in getEntityIncidents' shape.
const GET_INCIDENTS = `query getEntityIncidents($urn: String!, $start: Int!, $count: Int!, $state: IncidentState) {
  entity(urn: $urn) { ... on Dataset { incidents(start: $start, count: $count, state: $state) {
    start count total
    incidents {
      urn type incidentType customType title description startedAt
      status { state stage message lastUpdated { time actor } }
      source { type source { urn } }
      created { time actor }
      tags { tags { tag { urn } } }
      priority
      assignees { ... on CorpUser { urn type } }
      entity { urn }
      linkedAssets: relationships(input: { types: ["IncidentOn"], direction: OUTGOING, start: 0, count: 1000, includeSoftDelete: false }) {
        relationships { entity { urn } }
      }
    }
  } } }
}`;

async function setup() {
  const { run, entities } = await goldenGraphql(databases, ['cypress_data.json'], { keep: (urn) => urn === SAMPLE || urn === DATASET });
  const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, [LATE, RESOLVED], []);
  const incident = (created: number, state: string, more: Record<string, unknown>) => ({
    entities: [DATASET],
    type: 'FRESHNESS',
    created: stamp(created),
    status: { state, lastUpdated: stamp(created + 1) },
    source: { type: 'MANUAL' },
    ...more,
  });
  await entities.service.write(grant, [
    {
      urn: LATE,
      aspect: 'incidentInfo',
      changeType: 'UPSERT',
      value: incident(1800000000000, 'ACTIVE', {
        title: 'Late load',
        priority: 1,
        assignees: [{ actor: 'urn:li:corpuser:jdoe', assignedAt: stamp(1) }],
        startedAt: 1799999999000,
        status: { state: 'ACTIVE', stage: 'TRIAGE', message: 'looking', lastUpdated: stamp(1800000000001) },
      }),
    },
    { urn: RESOLVED, aspect: 'incidentInfo', changeType: 'UPSERT', value: incident(1700000000000, 'RESOLVED', { priority: 3 }) },
  ]);
  return run;
}

describe("Dataset.incidents, as DataHub's EntityIncidentsResolver and IncidentMapper give them", () => {
  it('lists the incidents raised on the dataset, newest first, each from its incidentInfo', async () => {
    const run = await setup();
    const { data, errors } = await run(GET_INCIDENTS, { urn: DATASET, start: 0, count: 10 });
    expect(errors).toBeUndefined();
    const page = data!.entity.incidents;
    expect({ ...page, incidents: page.incidents.map((i: { urn: string }) => i.urn) }).toEqual({
      start: 0,
      count: 3,
      total: 3,
      incidents: [LATE, RESOLVED, SAMPLE],
    });
    expect(page.incidents[0]).toEqual({
      urn: LATE,
      type: 'INCIDENT',
      incidentType: 'FRESHNESS',
      customType: null,
      title: 'Late load',
      description: null,
      startedAt: 1799999999000,
      status: { state: 'ACTIVE', stage: 'TRIAGE', message: 'looking', lastUpdated: stamp(1800000000001) },
      source: { type: 'MANUAL', source: null },
      created: stamp(1800000000000),
      tags: null,
      priority: 'HIGH',
      assignees: [{ urn: 'urn:li:corpuser:jdoe', type: 'CORP_USER' }],
      entity: { urn: DATASET },
      linkedAssets: { relationships: [{ entity: { urn: DATASET } }] },
    });
    expect(page.incidents[2]).toMatchObject({
      urn: SAMPLE,
      incidentType: 'OPERATIONAL',
      title: 'test',
      description: 'test',
      status: { state: 'ACTIVE', stage: null, message: null, lastUpdated: { time: 1692301854919, actor: 'urn:li:corpuser:admin' } },
      priority: null,
      assignees: null,
    });
  });

  it('filters by state and priority, and pages', async () => {
    const run = await setup();
    const active = await run(GET_INCIDENTS, { urn: DATASET, start: 0, count: 10, state: 'ACTIVE' });
    expect(active.data!.entity.incidents.incidents.map((i: { urn: string }) => i.urn)).toEqual([LATE, SAMPLE]);
    const low = await run(`{ dataset(urn: "${DATASET}") { incidents(priority: LOW) { total incidents { urn priority } } } }`);
    expect(low.data!.dataset.incidents).toEqual({ total: 1, incidents: [{ urn: RESOLVED, priority: 'LOW' }] });
    const second = await run(GET_INCIDENTS, { urn: DATASET, start: 1, count: 1 });
    expect(second.data!.entity.incidents).toMatchObject({ start: 1, count: 1, total: 3, incidents: [{ urn: RESOLVED }] });
    const bad = await run(GET_INCIDENTS, { urn: DATASET, start: -1, count: 1 });
    expect(bad.errors?.map((e) => e.extensions?.code)).toEqual([400]);
  });
});

describe("incident edits, as DataHub's RaiseIncidentResolver, UpdateIncidentStatusResolver and UpdateIncidentResolver write them", () => {
  const NOW = 1_750_000_000_000;
  const CHART = 'urn:li:chart:(looker,cypress_baz1)';
  const editor: Actor = { urn: 'urn:li:corpuser:editor', privileges: new Set([Privilege.EDIT_ENTITY_INCIDENTS]) };
  const viewer: Actor = { urn: 'urn:li:corpuser:viewer', privileges: new Set([Privilege.VIEW_ENTITY_PAGE]) };
  const as = (actor: Actor) => ({ context: { actor, requestId: actor.urn } });
  // The UI's documents (mutations.graphql) and the variables its pages send (variables.json).
  const RAISE = 'mutation raiseIncident($input: RaiseIncidentInput!) { raiseIncident(input: $input) }';
  const UPDATE = 'mutation updateIncident($urn: String!, $input: UpdateIncidentInput!) { updateIncident(urn: $urn, input: $input) }';
  const STATUS =
    'mutation updateIncidentStatus($urn: String!, $input: IncidentStatusInput!) { updateIncidentStatus(urn: $urn, input: $input) }';
  const raised = { type: 'OPERATIONAL', title: 'Late data', description: "Yesterday's partition is missing", resourceUrn: DATASET };

  async function edits() {
    const golden = await goldenGraphql(databases, ['cypress_data.json'], {
      keep: (urn) => urn === DATASET || urn === CHART,
      now: () => NOW,
    });
    const infoOf = async (urn: string) =>
      (await golden.service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], ['incidentInfo'])).get(urn)?.get('incidentInfo')?.value;
    return { ...golden, infoOf };
  }

  it('raiseIncident writes an ACTIVE, MANUAL incidentInfo on the asset and answers its urn; the asset lists it', async () => {
    const { run, infoOf } = await edits();
    const { data, errors } = await run(RAISE, { input: raised }, as(editor));
    expect(errors).toBeUndefined();
    const urn = data!.raiseIncident as string;
    expect(urn).toMatch(/^urn:li:incident:[0-9a-f-]{36}$/);
    const stamp = { time: NOW, actor: editor.urn };
    expect(await infoOf(urn)).toEqual({
      type: 'OPERATIONAL',
      title: 'Late data',
      description: "Yesterday's partition is missing",
      entities: [DATASET],
      created: stamp,
      source: { type: 'MANUAL' },
      status: { state: 'ACTIVE', lastUpdated: stamp },
    });
    const listed = await run(`{ dataset(urn: "${DATASET}") { incidents(state: ACTIVE) { incidents { urn title } } } }`, {}, as(editor));
    expect(listed.data!.dataset.incidents.incidents).toContainEqual({ urn, title: 'Late data' });
  });

  it('raises on several assets with priority, assignees, a stage and a start; a chart lists its incidents too', async () => {
    const { run, infoOf } = await edits();
    const input = {
      type: 'CUSTOM',
      customType: 'Billing',
      resourceUrns: [CHART, DATASET],
      priority: 'CRITICAL',
      assigneeUrns: ['urn:li:corpuser:jdoe'],
      startedAt: 1_749_000_000_000,
      status: { state: 'ACTIVE', stage: 'TRIAGE', message: 'on it' },
      source: { type: 'ASSERTION_FAILURE' },
    };
    const urn = (await run(RAISE, { input }, as(editor))).data!.raiseIncident as string;
    const stamp = { time: NOW, actor: editor.urn };
    expect(await infoOf(urn)).toEqual({
      type: 'CUSTOM',
      customType: 'Billing',
      entities: [CHART, DATASET],
      created: stamp,
      startedAt: 1_749_000_000_000,
      source: { type: 'MANUAL' },
      priority: 0,
      assignees: [{ actor: 'urn:li:corpuser:jdoe', assignedAt: stamp }],
      status: { state: 'ACTIVE', stage: 'TRIAGE', message: 'on it', lastUpdated: stamp },
    });
    const chart = await run(`{ chart(urn: "${CHART}") { incidents { total incidents { urn priority customType } } } }`, {}, as(editor));
    expect(chart.data!.chart.incidents).toEqual({ total: 1, incidents: [{ urn, priority: 'CRITICAL', customType: 'Billing' }] });
  });

  it('updateIncidentStatus and updateIncident rewrite the status, text, priority and assignees as the UI sends them', async () => {
    const { run, infoOf } = await edits();
    const urn = (await run(RAISE, { input: { ...raised, priority: 'HIGH', assigneeUrns: ['urn:li:corpuser:jdoe'] } }, as(editor))).data!
      .raiseIncident as string;
    const resolved = await run(STATUS, { urn, input: { stage: 'FIXED', message: 'Backfilled', state: 'RESOLVED' } }, as(editor));
    expect(resolved).toEqual({ data: { updateIncidentStatus: true } });
    const stamp = { time: NOW, actor: editor.urn };
    expect((await infoOf(urn))!.status).toEqual({ state: 'RESOLVED', stage: 'FIXED', message: 'Backfilled', lastUpdated: stamp });
    const input = { title: 'Late data', description: 'Two partitions missing', priority: null, status: { state: 'ACTIVE', stage: null } };
    expect(await run(UPDATE, { urn, input }, as(editor))).toEqual({ data: { updateIncident: true } });
    const info = await infoOf(urn);
    // Priority and assignees not sent are removed (DataHub's REMOVE_IF_NULL); the stage null leaves none.
    expect(info).toEqual({
      type: 'OPERATIONAL',
      title: 'Late data',
      description: 'Two partitions missing',
      entities: [DATASET],
      created: stamp,
      source: { type: 'MANUAL' },
      status: { state: 'ACTIVE', lastUpdated: stamp },
    });
    await run(UPDATE, { urn, input: { resourceUrns: [CHART] } }, as(editor));
    expect((await infoOf(urn))!.entities).toEqual([CHART]);
  });

  it('refuses an actor without EDIT_ENTITY_INCIDENTS on the asset, and bad input, with DataHub’s texts; nothing is written', async () => {
    const { run, infoOf } = await edits();
    const refused = await run(RAISE, { input: raised }, as(viewer));
    expect(refused.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([
      ['Unauthorized to perform this action. Please contact your DataHub administrator.', 403],
    ]);
    const listed = await run(`{ dataset(urn: "${DATASET}") { incidents { total } } }`, {}, as(editor));
    expect(listed.data!.dataset.incidents.total).toBe(0);
    const urn = (await run(RAISE, { input: raised }, as(editor))).data!.raiseIncident as string;
    const before = await infoOf(urn);
    for (const [document, variables] of [
      [STATUS, { urn, input: { state: 'RESOLVED' } }],
      [UPDATE, { urn, input: { title: 'mine now' } }],
    ] as const) {
      expect((await run(document, variables, as(viewer))).errors?.[0]?.extensions?.code).toBe(403);
    }
    expect(await infoOf(urn)).toEqual(before);
    const bad = async (document: string, variables: Record<string, unknown>) =>
      (await run(document, variables, as(editor))).errors?.map((e) => [e.message, e.extensions?.code]);
    expect(await bad(RAISE, { input: { type: 'OPERATIONAL' } })).toEqual([
      ['At least 1 resource urn must be defined to raise an incident.', 400],
    ]);
    expect(await bad(RAISE, { input: { type: 'CUSTOM', resourceUrn: DATASET } })).toEqual([
      ['customType is required: Failed to create incident.', 400],
    ]);
    expect(await bad(RAISE, { input: { type: 'OPERATIONAL', resourceUrn: 'not-a-urn' } })).toEqual([['Invalid urn: not-a-urn', 400]]);
    expect(await bad(STATUS, { urn: 'urn:li:incident:missing', input: { state: 'RESOLVED' } })).toEqual([
      ['Failed to update incident. Incident does not exist.', 404],
    ]);
    expect(await bad(UPDATE, { urn, input: { resourceUrns: [] } })).toEqual([['resourceUrns cannot be empty if provided', 400]]);
  });
});
