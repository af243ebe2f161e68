import { Privilege } from '@mds/auth';
import { describe, expect, it } from 'vitest';
import type { TimeseriesAspectValues } from '../src/index.ts';
import { actorWith, admin, apiError, callAction, doc, embeddedPerTest, reader } from './helpers.ts';

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const OTHER_URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
const PROFILE_INDEX = 'dataset_datasetprofileaspect_v1';
const OPERATION_INDEX = 'dataset_operationaspect_v1';

describe('aspects getTimeseriesAspectValues', () => {
  const suite = embeddedPerTest();
  const call = async (body: Record<string, unknown>, actor = admin) =>
    (await callAction(
      suite.timeseries.module.actions!,
      'getTimeseriesAspectValues',
      { urn: URN, entity: 'dataset', aspect: 'datasetProfile', ...body },
      actor,
    )) as TimeseriesAspectValues;
  const times = (answer: TimeseriesAspectValues) =>
    answer.values.map((v) => (JSON.parse(v.aspect.value) as { timestampMillis: number }).timestampMillis);

  /** URN's profiles at 100..500 (300 with system metadata), an operation at 300; OTHER_URN's profile at 300. */
  async function seed() {
    await suite.timeseries.store.write([
      ...[100, 200, 400, 500].map((n) => doc(n, { urn: URN })),
      { ...doc(300, { urn: URN }), systemMetadataJson: '{"runId":"ingest-1","lastObserved":301}' },
      doc(300, { urn: URN, index: OPERATION_INDEX }),
      doc(300, { urn: OTHER_URN }),
    ]);
  }

  it('answers the points newest first, value as JSON text, system metadata parsed when present', async () => {
    await seed();
    const answer = await call({});
    expect(Object.keys(answer)).toEqual(['entityName', 'aspectName', 'limit', 'values']);
    expect(answer).toMatchObject({ entityName: 'dataset', aspectName: 'datasetProfile', limit: 10_000 });
    expect(times(answer)).toEqual([500, 400, 300, 200, 100]);
    expect(answer.values[0]).toEqual({ aspect: { value: doc(500, { urn: URN }).eventJson, contentType: 'application/json' } });
    expect(answer.values[2]).toEqual({
      aspect: { value: doc(300, { urn: URN }).eventJson, contentType: 'application/json' },
      systemMetadata: { runId: 'ingest-1', lastObserved: 301 },
    });
  });

  it('honours the inclusive window, limit, and echoes the window', async () => {
    await seed();
    const answer = await call({ startTimeMillis: 200, endTimeMillis: 400, limit: 2 });
    expect(Object.keys(answer)).toEqual(['entityName', 'aspectName', 'limit', 'startTimeMillis', 'endTimeMillis', 'values']);
    expect(answer).toMatchObject({ limit: 2, startTimeMillis: 200, endTimeMillis: 400 });
    expect(times(answer)).toEqual([400, 300]);
    expect(times(await call({ endTimeMillis: 200 }))).toEqual([200, 100]);
  });

  it('latestValue: true answers only the newest point, limit 1', async () => {
    await seed();
    const answer = await call({ latestValue: true, limit: 50, endTimeMillis: 450 });
    expect(answer.limit).toBe(1);
    expect(times(answer)).toEqual([400]);
    expect(times(await call({ latestValue: false, limit: 2 }))).toEqual([500, 400]);
  });

  it('sorts by timestampMillis as asked; any other sort field is a 400', async () => {
    await seed();
    expect(times(await call({ sort: { field: 'timestampMillis', order: 'ASCENDING' }, limit: 3 }))).toEqual([100, 200, 300]);
    expect(times(await call({ sort: { field: 'timestampMillis', order: 'DESCENDING' }, limit: 3 }))).toEqual([500, 400, 300]);
    const error = await apiError(call({ sort: { field: 'rowCount', order: 'ASCENDING' } }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/sort\.field.*timestampMillis \(got 'rowCount'\)/);
  });

  it('resolves entity and aspect names case-insensitively, answering the registry spelling', async () => {
    await seed();
    const answer = await call({ entity: 'DATASET', aspect: 'operation' });
    expect([answer.entityName, answer.aspectName]).toEqual(['dataset', 'operation']);
    expect(times(answer)).toEqual([300]);
    expect(times(await call({ urn: OTHER_URN, aspect: 'DatasetProfile' }))).toEqual([300]);
  });

  it('answers no values for an entity without points, and ignores a filter', async () => {
    await seed();
    expect((await call({ urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)' })).values).toEqual([]);
    const filter = { or: [{ and: [{ field: 'rowCount', values: ['3'], condition: 'EQUAL' }] }] };
    expect(times(await call({ filter, limit: 1 }))).toEqual([500]);
    expect(suite.timeseries.store.kind).toBe('embedded');
    expect(await suite.timeseries.store.countForTruncation(PROFILE_INDEX, 1000)).toEqual({ matching: 6, total: 6 });
  });

  it.each([
    [{ aspect: 'schemaMetadata' }, 'Unknown aspect schemaMetadata for entity dataset'],
    [{ aspect: 'nope' }, 'Unknown aspect nope for entity dataset'],
    [{ entity: 'glossaryTerm', aspect: 'operation' }, 'Unknown aspect operation for entity glossaryTerm'],
    [{ entity: 'chart', aspect: 'datasetProfile' }, 'Unknown aspect datasetProfile for entity chart'],
  ])('answers 400 for an aspect that is unknown or not time-series: %j', async (body, message) => {
    const error = await apiError(call(body));
    expect([error.status, error.message]).toEqual([400, message]);
  });

  it.each([
    [{ urn: undefined }, /^Parameter 'urn' of action 'getTimeseriesAspectValues': is required$/],
    [{ limit: 0 }, /^Parameter 'limit'.*must be greater than 0/],
    [{ limit: '5' }, /^Parameter 'limit'.*: must be a number$/],
    [{ startTimeMillis: 1.5 }, /^Parameter 'startTimeMillis'.*: must be an int$/],
    [{ latestValue: 'yes' }, /^Parameter 'latestValue'.*: must be a boolean$/],
    [{ sort: { field: 'timestampMillis', order: 'UP' } }, /^Parameter 'sort.order'/],
    [{ aspectName: 'x' }, /unknown key\(s\) 'aspectName'/],
  ])('answers 400 naming a bad parameter: %j', async (body, message) => {
    const error = await apiError(call(body));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(message);
  });

  it('needs VIEW_ENTITY_PAGE, with the 403 naming the urn', async () => {
    const refused = await apiError(call({}, actorWith(Privilege.MANAGE_SYSTEM_OPERATIONS)));
    expect([refused.status, refused.message]).toEqual([403, `User is unauthorized to get timeseries aspect for ${URN}`]);
    expect((await apiError(call({ aspect: 'nope' }, reader))).status).toBe(403);
    await expect(call({}, actorWith(Privilege.VIEW_ENTITY_PAGE))).resolves.toMatchObject({ values: [] });
  });
});
