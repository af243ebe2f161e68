import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestGolden, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Containers, users, groups, domains and platforms over GraphQL, and the fields that lead from one entity to others
// (containers, relationships, lineage: entities-api §9.2), read from what DataHub's own files ingest (sources in
// packages/entities/test/fixtures/datahub/SOURCES.md): bootstrap_mce.json (datasets, lineage, jobs),
// test_containers.json, test_domains.json and ldap_mces_golden.json (users and groups).
const datasetUrn = (platform: string, name: string) => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const COLLATIONS = datasetUrn('mysql', 'information_schema.COLLATIONS');
const LOGGING_EVENTS = datasetUrn('hive', 'logging_events');
const HIVE = datasetUrn('hive', 'SampleHiveDataset');
const TASK_123 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)';
const TASK_456 = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_456)';

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  await ingestSnapshots(mds);
  for (const file of ['test_containers.json', 'test_domains.json', 'ldap_mces_golden.json']) await ingestGolden(mds, file);
});
afterAll(() => mds?.close());

const data = async (query: string, variables?: Record<string, unknown>) => {
  const result = await mds.graphql(query, variables);
  expect(graphqlError(result)).toBeUndefined();
  return result.body.data;
};

describe('containers', () => {
  it('answers container(urn) from containerProperties, subTypes, dataPlatformInstance and its parent', async () => {
    const { container } = await data(`{ container(urn: "urn:li:container:SCHEMA") {
      urn type platform { urn name } properties { name description } subTypes { typeNames }
      container { urn properties { name } } parentContainers { count containers { urn } } exists } }`);
    expect(container).toEqual({
      urn: 'urn:li:container:SCHEMA',
      type: 'CONTAINER',
      platform: { urn: 'urn:li:dataPlatform:mysql', name: 'mysql' },
      properties: { name: 'information_schema', description: 'The MySQL root schema.' },
      subTypes: { typeNames: ['Schema'] },
      container: { urn: 'urn:li:container:DATABASE', properties: { name: 'root_db' } },
      parentContainers: { count: 1, containers: [{ urn: 'urn:li:container:DATABASE' }] },
      exists: true,
    });
  });

  it('lists a container’s entities and a dataset’s chain of containers, nearest first', async () => {
    const { container, dataset } = await data(`{
      container(urn: "urn:li:container:SCHEMA") { entities(input: { start: 0, count: 10 }) { total searchResults { entity { urn } } } }
      dataset(urn: "${COLLATIONS}") { container { urn } parentContainers { count containers { urn properties { name } } } } }`);
    expect(container.entities).toEqual({ total: 1, searchResults: [{ entity: { urn: COLLATIONS } }] });
    expect(dataset.container).toEqual({ urn: 'urn:li:container:SCHEMA' });
    expect(dataset.parentContainers).toEqual({
      count: 2,
      containers: [
        { urn: 'urn:li:container:SCHEMA', properties: { name: 'information_schema' } },
        { urn: 'urn:li:container:DATABASE', properties: { name: 'root_db' } },
      ],
    });
  });

  it('answers null for an absent container and for another type’s urn', async () => {
    expect(await data(`{ container(urn: "urn:li:container:nope") { urn } other: container(urn: "${COLLATIONS}") { urn } }`)).toEqual({
      container: null,
      other: null,
    });
  });
});

describe('users and groups', () => {
  it('answers corpUser(urn) from corpUserInfo', async () => {
    const { corpUser } = await data(`{ corpUser(urn: "urn:li:corpuser:hsimpson") {
      urn type username properties { active displayName email title firstName lastName fullName } editableProperties { displayName } } }`);
    expect(corpUser).toEqual({
      urn: 'urn:li:corpuser:hsimpson',
      type: 'CORP_USER',
      username: 'hsimpson',
      properties: {
        active: true,
        displayName: 'Homer Simpson',
        email: 'hsimpson',
        title: 'Mr. Everything',
        firstName: 'Homer',
        lastName: 'Simpson',
        fullName: 'Homer Simpson',
      },
      editableProperties: null,
    });
  });

  it('answers corpGroup(urn), and null for a user that was never ingested', async () => {
    const { corpGroup, corpUser } =
      await data(`{ corpGroup(urn: "urn:li:corpGroup:simpons-group") { urn type name properties { displayName } exists }
      corpUser(urn: "urn:li:corpuser:nobody") { urn } }`);
    expect(corpGroup).toEqual({
      urn: 'urn:li:corpGroup:simpons-group',
      type: 'CORP_GROUP',
      name: 'simpons-group',
      properties: { displayName: null },
      exists: true,
    });
    expect(corpUser).toBeNull();
  });

  it('finds users by name in searchAcrossEntities', async () => {
    const { searchAcrossEntities } = await data(
      `{ searchAcrossEntities(input: { types: [CORP_USER], query: "homer" }) { total searchResults { entity { urn ... on CorpUser { properties { fullName } } } } } }`,
    );
    expect(searchAcrossEntities).toEqual({
      total: 1,
      searchResults: [{ entity: { urn: 'urn:li:corpuser:hsimpson', properties: { fullName: 'Homer Simpson' } } }],
    });
  });
});

describe('domains and platforms', () => {
  it('answers domain(urn) with its properties and entities', async () => {
    const { domain } = await data(`{ domain(urn: "urn:li:domain:marketing") {
      urn type id properties { name description } parentDomains { count } entities(input: { start: 0, count: 5 }) { total searchResults { entity { urn } } } } }`);
    expect(domain).toEqual({
      urn: 'urn:li:domain:marketing',
      type: 'DOMAIN',
      id: 'marketing',
      properties: { name: 'Sales', description: 'My custom domain' },
      parentDomains: { count: 0 },
      entities: { total: 1, searchResults: [{ entity: { urn: datasetUrn('mysql', 'information_schema.VIEWS') } }] },
    });
  });

  it('answers dataPlatform(urn) from dataPlatformInfo', async () => {
    const { dataPlatform } = await data(`{ dataPlatform(urn: "urn:li:dataPlatform:kafka") { urn type name properties { displayName } } }`);
    expect(dataPlatform).toEqual({
      urn: 'urn:li:dataPlatform:kafka',
      type: 'DATA_PLATFORM',
      name: 'kafka',
      properties: { displayName: 'Kafka' },
    });
  });
});

describe('relationships and lineage', () => {
  it('answers a dataset’s upstreams and downstreams one hop away, datasets and jobs alike', async () => {
    const { dataset } = await data(`{ dataset(urn: "${LOGGING_EVENTS}") {
      up: lineage(input: { direction: UPSTREAM }) { total relationships { type degree entity { urn type } } }
      down: lineage(input: { direction: DOWNSTREAM, start: 0, count: 10 }) { total relationships { type entity { urn } } } } }`);
    expect(dataset.up).toEqual({ total: 1, relationships: [{ type: 'DownstreamOf', degree: 1, entity: { urn: HIVE, type: 'DATASET' } }] });
    expect(dataset.down.relationships).toEqual([
      { type: 'Consumes', entity: { urn: TASK_123 } },
      { type: 'Consumes', entity: { urn: TASK_456 } },
      { type: 'DownstreamOf', entity: { urn: datasetUrn('hive', 'fct_users_created') } },
      { type: 'DownstreamOf', entity: { urn: datasetUrn('hive', 'fct_users_deleted') } },
      { type: 'DownstreamOf', entity: { urn: datasetUrn('s3', 'project/root/events/logging_events_bckp') } },
    ]);
    expect(dataset.down.total).toBe(5);
  });

  it('answers a job’s lineage from dataJobInputOutput: inputs and upstream jobs up, outputs down', async () => {
    const { dataJob } = await data(`{ dataJob(urn: "${TASK_456}") {
      up: lineage(input: { direction: UPSTREAM }) { relationships { type entity { urn } } }
      down: lineage(input: { direction: DOWNSTREAM }) { relationships { type entity { urn } } } } }`);
    expect(dataJob.up.relationships).toEqual([
      { type: 'Consumes', entity: { urn: LOGGING_EVENTS } },
      { type: 'DownstreamOf', entity: { urn: TASK_123 } },
    ]);
    expect(dataJob.down.relationships).toEqual([{ type: 'Produces', entity: { urn: datasetUrn('hive', 'fct_users_deleted') } }]);
  });

  it('pages relationships like GET /relationships, and resolves each entity', async () => {
    const query = `query ($start: Int) { dataset(urn: "${HIVE}") {
      relationships(input: { types: ["OwnedBy"], direction: OUTGOING, start: $start, count: 1 }) { start count total relationships { type direction entity { urn ... on CorpUser { username } } } } } }`;
    const first = (await data(query, { start: 0 })).dataset.relationships;
    const second = (await data(query, { start: 1 })).dataset.relationships;
    const rest = await mds
      .clientFor(mds.rootToken)
      .get(`/relationships?urn=${encodeURIComponent(HIVE)}&types=List(OwnedBy)&direction=OUTGOING&start=0&count=10`);
    expect(first.total).toBe(rest.body.total);
    expect([...first.relationships, ...second.relationships].map((r: { entity: { urn: string } }) => r.entity.urn)).toEqual(
      rest.body.relationships.slice(0, 2).map((r: { entity: string }) => r.entity),
    );
    expect(first.relationships[0]).toMatchObject({ type: 'OwnedBy', direction: 'OUTGOING', entity: { username: expect.any(String) } });
  });

  it('refuses a negative start with a 400', async () => {
    const result = await mds.graphql(`{ dataset(urn: "${HIVE}") { lineage(input: { direction: UPSTREAM, start: -1 }) { total } } }`);
    expect(graphqlError(result)).toEqual({ message: "'start' must be an integer of at least 0", code: 400 });
  });
});
