import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
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
