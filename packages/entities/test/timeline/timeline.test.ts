import { sqliteTestDatabases } from '@mds/db/testing';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fileItemProposals, SYSTEM_ACTOR } from '../../src/index';
import { errorOf, upsert } from '../graphql/edit-support';
import { goldenGraphql } from '../graphql/golden';
import { uiCallVariables } from '../../../../apps/server/test/webui/ui-queries';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// The UI's documents (apps/server/test/fixtures/datahub-web-react/graphql, DataHub c731e725) and the variables its pages
// send (variables.json; $SCHEMA_VERSION is the version picked in the Schema tab's version list).
const uiDocument = (file: string) =>
  readFileSync(new URL(`../../../../apps/server/test/fixtures/datahub-web-react/graphql/${file}`, import.meta.url), 'utf8');
const UI_BLAME_AND_VERSIONS = uiDocument('schemaBlame.graphql');
const UI_TIMELINE = uiDocument('timeline.graphql');
const uiInput = (operation: string, values: Record<string, string>) => uiCallVariables('queries', operation, values);

// DataHub's timeline smoke tests' files (test/fixtures/datahub/timeline, SOURCES.md): the values it writes in turn.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/datahub/timeline/${name}`, import.meta.url), 'utf8')) as unknown;
const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-timeline-sample-kafka,PROD)';
const field = (path: string) => `urn:li:schemaField:(${URN},${path})`;
const PROVIDER = '[version=2.0].[type=struct].[type=struct].service.[type=struct].provider';
const SCHEMAS = ['newschema.json', 'newschemav2.json', 'newschemav3.json'];

/** Writes each step's aspects through the service at its own time (step i at (i + 1) × 10 s). */
async function withHistory(steps: readonly (readonly [string, unknown])[][], urn = URN) {
  let time = 1;
  const api = await goldenGraphql(databases, [], { now: () => time });
  for (const [i, step] of steps.entries()) {
    time = (i + 1) * 10_000;
    await api.service.ingest(
      SYSTEM_ACTOR,
      step.map(([aspect, value]) => upsert(urn, aspect, value)),
      { batch: true },
    );
  }
  return api;
}
const schemaHistory = () => withHistory(SCHEMAS.map((file) => [['schemaMetadata', fixture(file)]]));

const timelineOf = async (api: Awaited<ReturnType<typeof withHistory>>, changeCategories: string[] | null, urn = URN) => {
  const result = await api.run(UI_TIMELINE, { input: { urn, changeCategories } });
  expect(result.errors).toBeUndefined();
  return result.data!.getTimeline.changeTransactions as {
    timestampMillis: number;
    lastSemanticVersion: string;
    changes: {
      category: string;
      operation: string;
      modifier: string | null;
      description: string;
      parameters: { key: string; value: string }[] | null;
    }[];
  }[];
};
/** What DataHub's smoke tests assert of a timeline: per transaction, its number of changes and its semantic version. */
const shape = (transactions: Awaited<ReturnType<typeof timelineOf>>) =>
  transactions.map((transaction) => [transaction.changes.length, transaction.lastSemanticVersion]);

describe("getTimeline, as DataHub's GetTimelineResolver answers from its TimelineServiceImpl", () => {
  it('schemaMetadata (SchemaMetadataChangeEventGenerator): fields added, renamed and removed, versions 0.0.0 → 1.0.0 → 2.0.0 (timeline_test.py::test_schema)', async () => {
    const api = await schemaHistory();
    const transactions = await timelineOf(api, ['TECHNICAL_SCHEMA']);
    // DataHub's test: 6 changes (minor), then 3 (major), then 3 (major), the last 2.0.0-computed.
    expect(shape(transactions)).toEqual([
      [6, '0.0.0-computed'],
      [3, '1.0.0-computed'],
      [3, '2.0.0-computed'],
    ]);
    expect(transactions.map((t) => t.timestampMillis)).toEqual([10_000, 20_000, 30_000]);
    // v1 → v2: `id` became `id2` (same type, parent and description: a rename), `name` went, `id3` came (another type).
    const [, second] = transactions;
    const params = (path: string, nullable: string, modification: string) => [
      { key: 'fieldPath', value: path },
      { key: 'fieldUrn', value: field(path) },
      { key: 'nullable', value: nullable },
      { key: 'modificationCategory', value: modification },
    ];
    expect(second!.changes).toEqual([
      {
        urn: 'empty',
        auditStamp: null,
        category: 'TECHNICAL_SCHEMA',
        operation: 'MODIFY',
        modifier: field(`${PROVIDER}.[type=int].id`),
        description: "A forwards & backwards compatible change due to renaming of the field 'service.provider.id to service.provider.id2'.",
        parameters: params(`${PROVIDER}.[type=int].id`, 'true', 'RENAME'),
      },
      {
        urn: 'empty',
        auditStamp: null,
        category: 'TECHNICAL_SCHEMA',
        operation: 'ADD',
        modifier: field(`${PROVIDER}.[type=int].id3`),
        description: "A forwards & backwards compatible change due to the newly added field 'service.provider.id3'.",
        parameters: params(`${PROVIDER}.[type=int].id3`, 'true', 'OTHER'),
      },
      {
        urn: 'empty',
        auditStamp: null,
        category: 'TECHNICAL_SCHEMA',
        operation: 'REMOVE',
        modifier: field(`${PROVIDER}.[type=string].name`),
        description: "A backwards incompatible change due to removal of field: 'service.provider.name'.",
        parameters: params(`${PROVIDER}.[type=string].name`, 'true', 'OTHER'),
      },
    ]);
    // The mapper's constants: no transaction stamp, every transaction a MODIFY.
    const raw = await api.run(`{ getTimeline(input: { urn: "${URN}" }) { changeTransactions { versionStamp changeType } } }`);
    expect(raw.data!.getTimeline.changeTransactions).toEqual(Array(3).fill({ versionStamp: 'none', changeType: 'MODIFY' }));
  });

  it("a native type changed is major; primary keys added or removed are major; a field's description changed is a patch", async () => {
    const column = (fieldPath: string, nativeDataType: string, description?: string) => ({
      fieldPath,
      nativeDataType,
      type: { type: { 'com.linkedin.schema.StringType': {} } },
      ...(description ? { description } : {}),
    });
    const schema = (fields: unknown[], primaryKeys?: string[]) => ({
      schemaName: 'orders',
      platform: 'urn:li:dataPlatform:kafka',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields,
      ...(primaryKeys ? { primaryKeys } : {}),
    });
    const api = await withHistory([
      [['schemaMetadata', schema([column('id', 'int', 'The key'), column('note', 'varchar')])]],
      [['schemaMetadata', schema([column('id', 'bigint', 'The key'), column('note', 'varchar')], ['id'])]],
      [['schemaMetadata', schema([column('id', 'bigint', 'The order key'), column('note', 'varchar')], ['id'])]],
    ]);
    const transactions = await timelineOf(api, ['TECHNICAL_SCHEMA', 'DOCUMENTATION']);
    expect(shape(transactions)).toEqual([
      [3, '0.0.0-computed'],
      [2, '1.0.0-computed'],
      [1, '1.0.1-computed'],
    ]);
    expect(transactions[1]!.changes.map((c) => [c.operation, c.description])).toEqual([
      ['MODIFY', "A backwards incompatible change due to native datatype of the field 'id' changed from 'int' to 'bigint'."],
      ['MODIFY', "A backwards incompatible change due to addition of the primary key field 'id'"],
    ]);
    expect(transactions[2]!.changes).toEqual([
      {
        urn: 'empty',
        auditStamp: null,
        category: 'DOCUMENTATION',
        operation: 'MODIFY',
        modifier: null,
        description: "The description for the field 'id' has been changed from 'The key' to 'The order key'.",
        parameters: [{ key: 'description', value: 'The order key' }],
      },
    ]);
  });

  it("the UI's history sidebar (TECHNICAL_SCHEMA, DOCUMENTATION): field, dataset and link documentation, other categories left out", async () => {
    const api = await withHistory([
      [['schemaMetadata', fixture('newschema.json')]],
      [['editableSchemaMetadata', fixture('neweditableschemametadata.json')]],
      [['editableSchemaMetadata', fixture('neweditableschemametadatav2.json')]],
      [['editableSchemaMetadata', fixture('neweditableschemametadatav3.json')]],
      [
        ['editableDatasetProperties', { description: 'Orders by day' }],
        ['datasetProperties', { description: 'Orders', customProperties: {} }],
      ],
      [['institutionalMemory', fixture('newdocumentation.json')]],
      // Tags are not asked for: no transaction, no version.
      [['globalTags', fixture('newtags.json')]],
    ]);
    const result = await api.run(UI_TIMELINE, uiInput('getTimeline', { $DATASET_URN: URN }));
    expect(result.errors).toBeUndefined();
    const transactions = result.data!.getTimeline.changeTransactions as Awaited<ReturnType<typeof timelineOf>>;
    expect(transactions.map((t) => [t.timestampMillis, t.lastSemanticVersion])).toEqual([
      [10_000, '0.0.0-computed'],
      [20_000, '0.1.0-computed'],
      [30_000, '0.1.1-computed'],
      [40_000, '0.2.0-computed'],
      [50_000, '0.3.0-computed'],
      [60_000, '0.4.0-computed'],
    ]);
    const fieldUrn = field('fieldpath');
    const described = (t: (typeof transactions)[number]) =>
      t.changes.map((c) => [c.category, c.operation, c.modifier, c.description, c.parameters]);
    // EditableSchemaMetadataChangeEventGenerator: the path as modifier; a removal names the path as Java prints an Optional.
    expect(transactions.slice(1, 4).map(described)).toEqual([
      [
        [
          'DOCUMENTATION',
          'ADD',
          'fieldpath',
          `Documentation for the field 'fieldpath' of '${fieldUrn}' has been added: 'desc'`,
          [{ key: 'description', value: 'desc' }],
        ],
      ],
      [
        [
          'DOCUMENTATION',
          'MODIFY',
          'fieldpath',
          `Documentation for the field 'fieldpath' of '${fieldUrn}' has been updated from 'desc' to 'desc2'.`,
          [{ key: 'description', value: 'desc2' }],
        ],
      ],
      [
        [
          'DOCUMENTATION',
          'REMOVE',
          'fieldpath',
          `Documentation for the field 'Optional[fieldpath]' of '${fieldUrn}' has been removed: 'desc2'`,
          [{ key: 'description', value: 'desc2' }],
        ],
      ],
    ]);
    // Both descriptions written at once are one transaction (EditableDatasetProperties…, DatasetPropertiesChangeEventGenerator).
    expect(described(transactions[4]!)).toEqual([
      [
        'DOCUMENTATION',
        'ADD',
        null,
        `Documentation for '${URN}' has been added: 'Orders by day'.`,
        [{ key: 'description', value: 'Orders by day' }],
      ],
      ['DOCUMENTATION', 'ADD', null, `Documentation for '${URN}' has been added: 'Orders'.`, [{ key: 'description', value: 'Orders' }]],
    ]);
    // InstitutionalMemoryChangeEventGenerator: the url as modifier, no parameters.
    expect(described(transactions[5]!)).toEqual([
      [
        'DOCUMENTATION',
        'ADD',
        'https://www.linkedin.com',
        `Institutional Memory 'https://www.linkedin.com' with documentation of '${URN}' has been added: 'Sample doc'`,
        null,
      ],
    ]);
  });

  it('links, tags, terms and owners as DataHub asserts them (test_documentation, test_tags, test_glossary, test_ownership)', async () => {
    const runs = [
      ['institutionalMemory', 'newdocumentation', 'DOCUMENTATION', [1, 1, 3]],
      ['globalTags', 'newtags', 'TAG', [1, 1, 2]],
      ['glossaryTerms', 'newglossary', 'GLOSSARY_TERM', [1, 1, 2]],
      ['ownership', 'newownership', 'OWNERSHIP', [2, 1, 2]],
    ] as const;
    for (const [aspect, file, category, counts] of runs) {
      const api = await withHistory(['', 'v2', 'v3'].map((v) => [[aspect, fixture(`${file}${v}.json`)]]));
      expect(shape(await timelineOf(api, [category]))).toEqual([
        [counts[0], '0.0.0-computed'],
        [counts[1], '0.1.0-computed'],
        [counts[2], '0.2.0-computed'],
      ]);
    }
    const tags = await withHistory(['', 'v2', 'v3'].map((v) => [['globalTags', fixture(`newtags${v}.json`)]]));
    expect((await timelineOf(tags, ['TAG']))[2]!.changes.map((c) => [c.operation, c.modifier, c.description, c.parameters])).toEqual([
      ['REMOVE', 'urn:li:tag:Legacy', `Tag 'Legacy' removed from entity '${URN}'.`, [{ key: 'tagUrn', value: 'urn:li:tag:Legacy' }]],
      [
        'REMOVE',
        'urn:li:tag:NeedsDocumentation',
        `Tag 'NeedsDocumentation' removed from entity '${URN}'.`,
        [{ key: 'tagUrn', value: 'urn:li:tag:NeedsDocumentation' }],
      ],
    ]);
    // Owners (OwnershipChangeEventGenerator; DataHub's OWNER is the schema's OWNERSHIP): added, type changed (a patch), removed.
    const owner = (urn: string, type: string) => ({ owner: urn, type });
    const owners = await withHistory([
      [['ownership', { owners: [owner('urn:li:corpuser:jdoe', 'DATAOWNER'), owner('urn:li:corpuser:datahub', 'DATAOWNER')] }]],
      [['ownership', { owners: [owner('urn:li:corpuser:jdoe', 'TECHNICAL_OWNER')] }]],
    ]);
    const transactions = await timelineOf(owners, ['OWNERSHIP']);
    expect(shape(transactions)).toEqual([
      [2, '0.0.0-computed'],
      [2, '0.1.0-computed'],
    ]);
    expect(transactions[1]!.changes.map((c) => [c.category, c.operation, c.modifier, c.description, c.parameters])).toEqual([
      [
        'OWNERSHIP',
        'REMOVE',
        'urn:li:corpuser:datahub',
        `'datahub' removed as a \`DATAOWNER\` of '${URN}'.`,
        [
          { key: 'ownerUrn', value: 'urn:li:corpuser:datahub' },
          { key: 'ownerType', value: 'DATAOWNER' },
        ],
      ],
      [
        'OWNERSHIP',
        'MODIFY',
        'TECHNICAL_OWNER',
        `'jdoe''s ownership type changed from 'DATAOWNER' to 'TECHNICAL_OWNER' for '${URN}'.`,
        [
          { key: 'ownerUrn', value: 'urn:li:corpuser:jdoe' },
          { key: 'ownerType', value: 'TECHNICAL_OWNER' },
        ],
      ],
    ]);
  });

  it("a schema field's tags and terms, from schemaMetadata (parent: the dataset) and editableSchemaMetadata (parent: the field)", async () => {
    const schema = fixture('newschema.json') as { fields: Record<string, unknown>[] };
    const tagged = {
      ...schema,
      fields: schema.fields.map((f, i) => (i === 0 ? { ...f, globalTags: { tags: [{ tag: 'urn:li:tag:Pii' }] } } : f)),
    };
    const edited = (terms: string[]) => ({
      editableSchemaFieldInfo: [
        {
          fieldPath: 'property_id',
          glossaryTerms: { terms: terms.map((urn) => ({ urn })), auditStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } },
        },
      ],
      created: { time: 0, actor: 'urn:li:corpuser:jdoe' },
    });
    const api = await withHistory([
      [
        ['schemaMetadata', schema],
        ['editableSchemaMetadata', edited([])],
      ],
      [['schemaMetadata', tagged]],
      [['editableSchemaMetadata', edited(['urn:li:glossaryTerm:Id'])]],
    ]);
    const fieldUrn = field('property_id');
    const changes = (await timelineOf(api, ['TAG', 'GLOSSARY_TERM'])).map((t) =>
      t.changes.map((c) => [c.category, c.operation, c.modifier, c.description, c.parameters]),
    );
    expect(changes).toEqual([
      [
        [
          'TAG',
          'ADD',
          'urn:li:tag:Pii',
          `Tag 'Pii' added to entity '${fieldUrn}'.`,
          [
            { key: 'fieldPath', value: 'property_id' },
            { key: 'parentUrn', value: URN },
            { key: 'tagUrn', value: 'urn:li:tag:Pii' },
          ],
        ],
      ],
      [
        [
          'GLOSSARY_TERM',
          'ADD',
          'urn:li:glossaryTerm:Id',
          `Term 'Id' added to entity '${fieldUrn}'.`,
          [
            { key: 'fieldPath', value: 'property_id' },
            { key: 'parentUrn', value: fieldUrn },
            { key: 'termUrn', value: 'urn:li:glossaryTerm:Id' },
          ],
        ],
      ],
    ]);
  });

  it('every category, three MCE files ingested in turn: 10, 9 and 6 changes up to 2.0.0 (timeline_test.py::test_all)', async () => {
    let time = 1;
    const api = await goldenGraphql(databases, [], { now: () => time });
    for (const [i, file] of ['timeline_test_data.json', 'timeline_test_datav2.json', 'timeline_test_datav3.json'].entries()) {
      time = (i + 1) * 10_000;
      const items = fixture(file) as unknown[];
      await api.service.ingest(
        SYSTEM_ACTOR,
        items.flatMap((item, n) => fileItemProposals(item, `${file}[${n}]`)),
        { batch: true },
      );
    }
    const all = await timelineOf(api, null);
    expect(shape(all)).toEqual([
      [10, '0.0.0-computed'],
      [9, '1.0.0-computed'],
      [6, '2.0.0-computed'],
    ]);
    expect(shape(await timelineOf(api, ['TAG', 'DOCUMENTATION', 'TECHNICAL_SCHEMA', 'GLOSSARY_TERM', 'OWNERSHIP']))).toEqual(shape(all));
  });

  it("a glossary term's definition (GlossaryTermInfoChangeEventGenerator, no parameters) and owners; no other category", async () => {
    const TERM = 'urn:li:glossaryTerm:CustomerAccount';
    const info = (definition: string) => ({ definition, termSource: 'INTERNAL' });
    const api = await withHistory(
      [
        [['glossaryTermInfo', info('An account')]],
        [['glossaryTermInfo', info('A customer account')]],
        [['ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] }]],
      ],
      TERM,
    );
    const all = await timelineOf(api, null, TERM);
    expect(all.map((t) => [t.lastSemanticVersion, t.changes.map((c) => [c.category, c.operation, c.description, c.parameters])])).toEqual([
      ['0.0.0-computed', [['DOCUMENTATION', 'ADD', `Documentation for '${TERM}' has been added: 'An account'.`, null]]],
      [
        '0.1.0-computed',
        [['DOCUMENTATION', 'MODIFY', `Documentation of '${TERM}' has been changed from 'An account' to 'A customer account'.`, null]],
      ],
      [
        '0.2.0-computed',
        [
          [
            'OWNERSHIP',
            'ADD',
            `'jdoe' added as a \`DATAOWNER\` of '${TERM}'.`,
            [
              { key: 'ownerUrn', value: 'urn:li:corpuser:jdoe' },
              { key: 'ownerType', value: 'DATAOWNER' },
            ],
          ],
        ],
      ],
    ]);
    // DataHub's timeline of a term has no tags or schema: nothing, not an error.
    expect(await timelineOf(api, ['TAG', 'TECHNICAL_SCHEMA'], TERM)).toEqual([]);
  });

  it('answers no transactions for an entity never written, and refuses what DataHub cannot answer with a clear error', async () => {
    const api = await schemaHistory();
    const other = 'urn:li:dataset:(urn:li:dataPlatform:kafka,never-written,PROD)';
    const empty = await api.run(UI_TIMELINE, { input: { urn: other, changeCategories: ['TECHNICAL_SCHEMA'] } });
    expect(empty.data!.getTimeline).toEqual({ changeTransactions: [] });
    const chart = await api.run(UI_TIMELINE, { input: { urn: 'urn:li:chart:(looker,1)' } });
    expect(errorOf(chart)).toEqual([{ message: 'Entity Type chart not supported', code: 400 }]);
    const malformed = await api.run(UI_TIMELINE, { input: { urn: 'not-an-urn' } });
    expect(errorOf(malformed)).toEqual([{ message: 'Invalid urn: not-an-urn', code: 400 }]);
  });
});

describe("getSchemaVersionList and getSchemaBlame, as DataHub's resolvers and their SchemaVersionListMapper and SchemaBlameMapper answer", () => {
  const STAMPS = { v0: 'datasetKey:0;schemaMetadata:1', v1: 'datasetKey:0;schemaMetadata:2', v2: 'datasetKey:0;schemaMetadata:0' };
  const version = (semanticVersion: string, semanticVersionTimestamp: number, versionStamp: string) => ({
    semanticVersion,
    semanticVersionTimestamp,
    versionStamp,
  });

  it("lists the schema's versions newest first, the latest apart, each with the stamp of every aspect's version then", async () => {
    const api = await schemaHistory();
    const result = await api.run(UI_BLAME_AND_VERSIONS, uiInput('getSchemaVersionList', { $DATASET_URN: URN }), {
      operationName: 'getSchemaVersionList',
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.getSchemaVersionList).toEqual({
      latestVersion: version('2.0.0', 30_000, STAMPS.v2),
      semanticVersionList: [version('2.0.0', 30_000, STAMPS.v2), version('1.0.0', 20_000, STAMPS.v1), version('0.0.0', 10_000, STAMPS.v0)],
    });
    // A dataset whose schema never changed has no list (null, as DataHub's mapper answers).
    const none = await api.run(
      `{ getSchemaVersionList(input: { datasetUrn: "urn:li:dataset:(urn:li:dataPlatform:kafka,none,PROD)" }) { latestVersion { semanticVersion } } }`,
    );
    expect(none).toEqual({ data: { getSchemaVersionList: null } });
  });

  it('blames each field of the version the UI picked on its last change up to then; removed fields are left out', async () => {
    const api = await schemaHistory();
    const blameAt = async (versionAsked: string | null) => {
      const variables =
        versionAsked === null
          ? { input: { datasetUrn: URN } }
          : uiInput('getSchemaBlame', { $DATASET_URN: URN, $SCHEMA_VERSION: versionAsked });
      const result = await api.run(UI_BLAME_AND_VERSIONS, variables, { operationName: 'getSchemaBlame' });
      expect(result.errors).toBeUndefined();
      return result.data!.getSchemaBlame as {
        version: unknown;
        schemaFieldBlameList: { fieldPath: string; schemaFieldChange: Record<string, unknown> }[] | null;
      };
    };
    const change = (timestampMillis: number, v: string, what: string, versionStamp: string) => ({
      timestampMillis,
      lastSemanticVersion: v,
      lastSchemaFieldChange: `${what} in v${v}`,
      versionStamp,
    });
    const first = change(10_000, '0.0.0', 'Added', STAMPS.v0);
    const byPath = (list: { fieldPath: string; schemaFieldChange: Record<string, unknown> }[] | null) =>
      Object.fromEntries((list ?? []).map((blame) => [blame.fieldPath, blame.schemaFieldChange]));

    // At 1.0.0: `id` was renamed (DataHub blames the old path), `id3` added, `name` removed (left out).
    const at1 = await blameAt('1.0.0');
    expect(at1.version).toEqual(version('1.0.0', 20_000, STAMPS.v1));
    expect(byPath(at1.schemaFieldBlameList)).toEqual({
      property_id: first,
      '[version=2.0].[type=struct].[type=struct].service': first,
      '[version=2.0].[type=struct].[type=struct].service.[type=string].type': first,
      [PROVIDER]: first,
      [`${PROVIDER}.[type=int].id`]: change(20_000, '1.0.0', 'Modified', STAMPS.v1),
      [`${PROVIDER}.[type=int].id3`]: change(20_000, '1.0.0', 'Added', STAMPS.v1),
    });

    // No version: the latest (2.0.0), where `name` came back and `id2` was renamed.
    const latest = await blameAt(null);
    expect(latest.version).toEqual(version('2.0.0', 30_000, STAMPS.v2));
    expect(byPath(latest.schemaFieldBlameList)).toEqual({
      property_id: first,
      '[version=2.0].[type=struct].[type=struct].service': first,
      '[version=2.0].[type=struct].[type=struct].service.[type=string].type': first,
      [PROVIDER]: first,
      [`${PROVIDER}.[type=int].id`]: change(20_000, '1.0.0', 'Modified', STAMPS.v1),
      [`${PROVIDER}.[type=int].id2`]: change(30_000, '2.0.0', 'Modified', STAMPS.v2),
      [`${PROVIDER}.[type=string].name`]: change(30_000, '2.0.0', 'Added', STAMPS.v2),
    });

    // A version between two is the older one's; one below every version, or not a version, blames nothing.
    expect((await blameAt('1.5')).version).toEqual(version('1.0.0', 20_000, STAMPS.v1));
    expect(await blameAt('not-a-version')).toEqual({ version: null, schemaFieldBlameList: null });
    const never = await api.run(
      UI_BLAME_AND_VERSIONS,
      uiInput('getSchemaBlame', { $DATASET_URN: URN.replace('sample', 'other'), $SCHEMA_VERSION: '1.0.0' }),
      {
        operationName: 'getSchemaBlame',
      },
    );
    expect(never.data!.getSchemaBlame).toEqual({ version: null, schemaFieldBlameList: null });
  });
});
