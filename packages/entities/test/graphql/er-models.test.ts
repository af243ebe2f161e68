import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { createHash } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { actor, ds, errorOf, versionedOnly } from './edit-support';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
// Datasets of DataHub's bootstrap sample (test/fixtures/datahub/bootstrap_mce.json).
const KAFKA = ds('kafka', 'SampleKafkaDataset');
const HIVE = ds('hive', 'SampleHiveDataset');
// The id DataHub's CreateERModelRelationshipResolver computes: md5 of this text, the smaller urn as "Destination".
const ID = createHash('md5').update(`{"Destination":"${HIVE}","ERModelRelationName":"orders_customers","Source":"${KAFKA}"}`).digest('hex');
const URN = `urn:li:erModelRelationship:${ID}`;

const as = actor;
const modeller = () => as('urn:li:corpuser:mo', Privilege.CREATE_ENTITY_ER_MODEL_RELATIONSHIP);
const editor = () => as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY);
const reader = () => as('urn:li:corpuser:rita');

// The UI's ermodelrelationship.graphql; its dataset and shared-aspect fragments narrowed to a few fields.
const GET = `query getERModelRelationship($urn: String!) { erModelRelationship(urn: $urn) {
  urn type id
  properties { name source { urn name } destination { urn } relationshipFieldMappings { sourceField destinationField } createdTime createdActor { urn } cardinality }
  editableProperties { description name }
  institutionalMemory { elements { url } } ownership { owners { owner { ... on CorpUser { urn } } } } status { removed }
  tags { tags { tag { urn } } } glossaryTerms { terms { term { urn } } }
  outgoing: relationships(input: { types: ["ermodelrelationA", "ermodelrelationB"], direction: OUTGOING, start: 0, count: 100 }) {
    total relationships { type direction entity { urn } } } } }`;
const CREATE = `mutation createERModelRelationship($input: ERModelRelationshipUpdateInput!) { createERModelRelationship(input: $input) { urn type id } }`;
const UPDATE = `mutation updateERModelRelationship($urn: String!, $input: ERModelRelationshipUpdateInput!) { updateERModelRelationship(urn: $urn, input: $input) }`;
/** The UI's createERModelRelationship variables (CreateERModelRelationModal). */
const created = {
  input: {
    properties: {
      source: KAFKA,
      destination: HIVE,
      name: 'orders_customers',
      relationshipFieldmappings: [{ sourceField: 'field_foo', destinationField: 'field_foo' }],
      erModelRelationshipCardinality: 'N_ONE',
      created: true,
    },
    editableProperties: { name: 'orders_customers', description: 'Each order has one customer' },
  },
};

async function setup() {
  let clock = NOW;
  const api = await goldenGraphql(databases, ['bootstrap_mce.json'], { now: () => clock, keep: versionedOnly });
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  return { ...api, stored, errorOf, tick: () => (clock += 1000) };
}

describe("ER model relationships, as DataHub's ERModelRelationMapper and its create/update resolvers", () => {
  it('createERModelRelationship writes both property aspects under the md5 id; the UI reads them back', async () => {
    const { run, stored, errorOf } = await setup();
    const result = await run(CREATE, created, modeller());
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ createERModelRelationship: { urn: URN, type: 'ER_MODEL_RELATIONSHIP', id: ID } });
    const stamp = { time: NOW, actor: 'urn:li:corpuser:mo' };
    expect(await stored(URN, 'erModelRelationshipProperties')).toEqual({
      name: 'orders_customers',
      source: KAFKA,
      destination: HIVE,
      relationshipFieldMappings: [{ sourceField: 'field_foo', destinationField: 'field_foo' }],
      cardinality: 'N_ONE',
      created: stamp,
      lastModified: stamp,
    });
    expect(await stored(URN, 'editableERModelRelationshipProperties')).toEqual({
      name: 'orders_customers',
      description: 'Each order has one customer',
    });

    const read = await run(GET, { urn: URN }, reader());
    expect(read.errors).toBeUndefined();
    expect(read.data!.erModelRelationship).toEqual({
      urn: URN,
      type: 'ER_MODEL_RELATIONSHIP',
      id: ID,
      properties: {
        name: 'orders_customers',
        source: { urn: KAFKA, name: 'SampleKafkaDataset' },
        destination: { urn: HIVE },
        relationshipFieldMappings: [{ sourceField: 'field_foo', destinationField: 'field_foo' }],
        createdTime: NOW,
        createdActor: { urn: 'urn:li:corpuser:mo' },
        cardinality: 'N_ONE',
      },
      editableProperties: { description: 'Each order has one customer', name: 'orders_customers' },
      institutionalMemory: null,
      ownership: null,
      status: null,
      tags: null,
      glossaryTerms: null,
      outgoing: {
        total: 2,
        relationships: expect.arrayContaining([
          { type: 'ermodelrelationA', direction: 'OUTGOING', entity: { urn: KAFKA } },
          { type: 'ermodelrelationB', direction: 'OUTGOING', entity: { urn: HIVE } },
        ]),
      },
    });

    // EDIT_ENTITY or CREATE_ENTITY_ER_MODEL_RELATIONSHIP on both datasets.
    expect(errorOf(await run(CREATE, created, reader()))).toEqual([
      { message: 'Unauthorized to create erModelRelationship. Please contact your DataHub administrator.', code: 403 },
    ]);
    const chart = { input: { properties: { ...created.input.properties, destination: 'urn:li:chart:(looker,baz1)' } } };
    expect(errorOf(await run(CREATE, chart, modeller()))).toEqual([
      { message: 'The destination of an ER model relationship must be a dataset urn: urn:li:chart:(looker,baz1)', code: 400 },
    ]);
  });

  it('works out the cardinality from the mappings when none is given (a repeated field is the N side)', async () => {
    const { run, stored } = await setup();
    const withMappings = (mappings: [string, string][]) => ({
      input: {
        properties: {
          source: KAFKA,
          destination: HIVE,
          name: 'orders_customers',
          relationshipFieldmappings: mappings.map(([sourceField, destinationField]) => ({ sourceField, destinationField })),
        },
      },
    });
    const cases: [[string, string][], string][] = [
      [[['a', 'x']], 'ONE_ONE'],
      [
        [
          ['a', 'x'],
          ['b', 'x'],
        ],
        'N_ONE',
      ],
      [
        [
          ['a', 'x'],
          ['a', 'y'],
        ],
        'ONE_N',
      ],
      [
        [
          ['a', 'x'],
          ['a', 'x'],
        ],
        'N_N',
      ],
    ];
    for (const [mappings, cardinality] of cases) {
      expect((await run(CREATE, withMappings(mappings), editor())).errors).toBeUndefined();
      expect((await stored(URN, 'erModelRelationshipProperties'))!.cardinality).toBe(cardinality);
    }
  });

  it('updateERModelRelationship rewrites what is given, keeps the creation stamp, and asks EDIT_ENTITY (or EDIT_ENTITY_DOCS)', async () => {
    const { run, stored, errorOf, tick } = await setup();
    await run(CREATE, created, modeller());
    const later = tick();
    // The UI's updateERModelRelationship variables: createdAt 0 restates no creation stamp.
    const update = {
      urn: URN,
      input: {
        properties: {
          ...created.input.properties,
          created: undefined,
          createdBy: 'urn:li:corpuser:mo',
          createdAt: 0,
          erModelRelationshipCardinality: 'ONE_ONE',
        },
        editableProperties: { name: '  ', description: 'One customer per order' },
      },
    };
    expect(errorOf(await run(UPDATE, update, reader()))).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    expect((await run(UPDATE, update, editor())).data).toEqual({ updateERModelRelationship: true });
    expect(await stored(URN, 'erModelRelationshipProperties')).toMatchObject({
      cardinality: 'ONE_ONE',
      created: { time: NOW, actor: 'urn:li:corpuser:mo' },
      lastModified: { time: later, actor: 'urn:li:corpuser:eddie' },
    });
    // A blank name is left out, as DataHub's mapper leaves it.
    expect(await stored(URN, 'editableERModelRelationshipProperties')).toEqual({ description: 'One customer per order' });
    // Only the documentation: EDIT_ENTITY_DOCS suffices.
    const docs = { urn: URN, input: { editableProperties: { description: 'Docs only' } } };
    expect((await run(UPDATE, docs, as('urn:li:corpuser:doc', Privilege.EDIT_ENTITY_DOCS))).errors).toBeUndefined();
    const absent = 'urn:li:erModelRelationship:absent';
    expect(errorOf(await run(UPDATE, { urn: absent, input: docs.input }, editor()))).toEqual([
      { message: `ER model relationship ${absent} does not exist`, code: 404 },
    ]);
  });

  it('deleteERModelRelationship (declared by DataHub, not wired there) deletes for who may create it, not for a reader', async () => {
    const { run, stored, errorOf } = await setup();
    expect((await run(CREATE, created, modeller())).errors).toBeUndefined();
    const DELETE = `mutation deleteERModelRelationship($urn: String!) { deleteERModelRelationship(urn: $urn) }`;
    expect(errorOf(await run(DELETE, { urn: URN }, reader()))).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    expect(await stored(URN, 'erModelRelationshipProperties')).toBeDefined();
    expect(await run(DELETE, { urn: URN }, modeller())).toEqual({ data: { deleteERModelRelationship: true } });
    expect(await stored(URN, 'erModelRelationshipProperties')).toBeUndefined();
    expect((await run(GET, { urn: URN }, reader())).data).toEqual({ erModelRelationship: null });
    expect(errorOf(await run(DELETE, { urn: URN }, modeller()))).toEqual([
      { message: `ER model relationship ${URN} does not exist`, code: 404 },
    ]);
    expect(errorOf(await run(DELETE, { urn: HIVE }, editor()))).toEqual([
      { message: `${HIVE} is not an ER model relationship urn`, code: 400 },
    ]);
  });
});
