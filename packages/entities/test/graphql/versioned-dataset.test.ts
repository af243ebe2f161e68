import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { uiCall } from '../../../auth/test/ui';
import { SYSTEM_ACTOR } from '../../src/index';
import { parseVersionStamp } from '../../src/graphql/versioned-dataset';
import { actor, errorOf, upsert } from './edit-support';
import { goldenGraphql } from './golden';
import { deactivateAllUsersPolicies } from '../faces';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// DataHub's timeline smoke tests' schemas (test/fixtures/datahub/timeline, SOURCES.md), written one after the other.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/datahub/timeline/${name}`, import.meta.url), 'utf8')) as {
    fields: { fieldPath: string; nativeDataType: string }[];
  };
const FIRST = fixture('newschema.json');
const SECOND = fixture('newschemav2.json');
const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,test-timeline-sample-kafka,PROD)';
const PII = 'urn:li:tag:pii';
const TERM = 'urn:li:glossaryTerm:Classification.Sensitive';
const FIELD = FIRST.fields[0]!.fieldPath;

// The UI's getVersionedDataset (versionedDataset.graphql, with its fragments) and getSchemaVersionList
// (schemaBlame.graphql), as the Schema tab's version selector sends them (variables.json).
const versioned = (versionStamp: string | null) =>
  uiCall('getVersionedDataset', { $DATASET_URN: URN, $SCHEMA_VERSION_STAMP: versionStamp });

/**
 * A dataset whose schemaMetadata was written twice (10 s, then 20 s), with a field's tag and term (editableSchemaMetadata)
 * written at 10 s and datasetProperties at 20 s: schemaMetadata version 1 is the first schema, version 0 the second.
 */
async function history(options: { view?: boolean } = {}) {
  let time = 1;
  const api = await goldenGraphql(databases, [], { now: () => time, authorization: { restApi: true, view: options.view ?? false } });
  const editable = {
    editableSchemaFieldInfo: [
      {
        fieldPath: FIELD,
        description: 'the key',
        globalTags: { tags: [{ tag: PII }] },
        glossaryTerms: { terms: [{ urn: TERM }], auditStamp: { time: 0, actor: 'urn:li:corpuser:jdoe' } },
      },
    ],
  };
  const steps = [
    [upsert(URN, 'schemaMetadata', FIRST), upsert(URN, 'editableSchemaMetadata', editable)],
    [
      upsert(URN, 'schemaMetadata', SECOND),
      upsert(URN, 'datasetProperties', { name: 'Sample', description: 'events', customProperties: {} }),
    ],
  ];
  for (const [i, step] of steps.entries()) {
    time = (i + 1) * 10_000;
    await api.service.ingest(SYSTEM_ACTOR, step, { batch: true });
  }
  const ui = async (versionStamp: string | null, context?: ApiContext) => {
    const { source, variableValues } = versioned(versionStamp);
    return api.run(source, variableValues, { context, operationName: 'getVersionedDataset' });
  };
  const answer = async (versionStamp: string | null) => {
    const result = await ui(versionStamp);
    expect(result.errors).toBeUndefined();
    return result.data!.versionedDataset;
  };
  return { ...api, ui, answer };
}

const paths = (schema: { fields: { fieldPath: string }[] }) => schema.fields.map((f) => f.fieldPath);

describe("versionedDataset, as DataHub's VersionedDatasetType reads a dataset at a version stamp (VersionedDatasetMapper)", () => {
  it('answers the schema at each stamp getSchemaVersionList gives, and at versions 0 and 1 named by hand', async () => {
    const api = await history();
    const stored = await api.service.reader(SYSTEM_ACTOR, { api: 'graphql' }).versions(URN, 'schemaMetadata');
    expect(stored.map((row) => [row.version, row.createdOn])).toEqual([
      [0, 20_000],
      [1, 10_000],
    ]);

    // The version list's stamps, as the UI reads them before it asks for one.
    const { source, variableValues } = uiCall('getSchemaVersionList', { $DATASET_URN: URN });
    const list = (await api.query(source, variableValues)).getSchemaVersionList;
    const stamps = (list.semanticVersionList as { versionStamp: string; semanticVersionTimestamp: number }[]).map((v) => v.versionStamp);
    expect(stamps).toEqual([
      'datasetKey:0;datasetProperties:0;editableSchemaMetadata:0;schemaMetadata:0',
      'datasetKey:0;editableSchemaMetadata:0;schemaMetadata:1',
    ]);

    const [latest, first] = await Promise.all(stamps.map((stamp) => api.answer(stamp)));
    expect(paths(latest.schema)).toEqual(SECOND.fields.map((f) => f.fieldPath));
    expect(paths(first.schema)).toEqual(FIRST.fields.map((f) => f.fieldPath));
    // SchemaMapper: the field's type from its PDL union, PDL defaults for the flags, lastObserved from that version's
    // system metadata.
    expect(first.schema.fields[0]).toEqual({
      fieldPath: FIELD,
      jsonPath: null,
      nullable: false,
      description: null,
      type: 'NUMBER',
      nativeDataType: FIRST.fields[0]!.nativeDataType,
      recursive: false,
      isPartOfKey: false,
      isPartitioningKey: false,
    });
    expect(first.schema.lastObserved).toBe(stored[1]!.systemMetadata?.lastObserved);
    expect(latest.schema.lastObserved).toBe(stored[0]!.systemMetadata?.lastObserved);
    expect(first.schema.lastObserved).not.toBe(latest.schema.lastObserved);
    // EditableSchemaMetadataMapper: the field's description, tag and term, as Dataset answers them.
    expect(first.editableSchemaMetadata.editableSchemaFieldInfo).toEqual([
      {
        fieldPath: FIELD,
        description: 'the key',
        globalTags: { tags: [expect.objectContaining({ tag: expect.objectContaining({ urn: PII }), associatedUrn: URN })] },
        glossaryTerms: { terms: [expect.objectContaining({ term: expect.objectContaining({ urn: TERM }), associatedUrn: URN })] },
      },
    ]);

    // The versions named by hand: 1 the first schema written, 0 the latest.
    expect(paths((await api.answer('schemaMetadata:1')).schema)).toEqual(FIRST.fields.map((f) => f.fieldPath));
    expect(paths((await api.answer('schemaMetadata:0')).schema)).toEqual(SECOND.fields.map((f) => f.fieldPath));
  });

  it('reads only the aspects a stamp names; without a stamp, every latest one; a version not stored reads nothing', async () => {
    const api = await history();
    const fields = `urn type name origin platform { urn name } properties { name description } schema { fields { fieldPath } }
      editableSchemaMetadata { editableSchemaFieldInfo { fieldPath } } tags { tags { tag { urn } } } subTypes { typeNames }
      parentContainers { count } health { type } relationships(input: { types: ["Contains"], direction: OUTGOING }) { total }`;
    const read = async (versionStamp: string | null) =>
      (
        await api.query(`query v($stamp: String) { versionedDataset(urn: "${URN}", versionStamp: $stamp) { ${fields} } }`, {
          stamp: versionStamp,
        })
      ).versionedDataset;
    const key = {
      urn: URN,
      type: 'DATASET',
      name: 'test-timeline-sample-kafka',
      origin: 'PROD',
      platform: { urn: 'urn:li:dataPlatform:kafka', name: 'kafka' },
    };
    // DataHub's mapper never fills these: null whatever is stored.
    const unset = { subTypes: null, parentContainers: null, health: null, relationships: null, tags: null };

    // Only schemaMetadata named: the other aspects are not read; the name is the key's (not datasetProperties').
    expect(await read('schemaMetadata:1')).toEqual({
      ...key,
      ...unset,
      properties: null,
      schema: { fields: FIRST.fields.map((f) => ({ fieldPath: f.fieldPath })) },
      editableSchemaMetadata: null,
    });
    const everything = {
      ...key,
      ...unset,
      properties: { name: 'Sample', description: 'events' },
      schema: { fields: SECOND.fields.map((f) => ({ fieldPath: f.fieldPath })) },
      editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: FIELD }] },
    };
    for (const blank of [null, '', '  ']) expect(await read(blank)).toEqual(everything);
    expect(await read('datasetProperties:0;editableSchemaMetadata:0;schemaMetadata:0')).toEqual(everything);
    // A version never written (or negative, which DataHub never stores) reads as absent; the dataset still answers.
    for (const missing of ['schemaMetadata:7', 'schemaMetadata:-1', 'schemaMetadata:99999999999999999'])
      expect(await read(missing)).toEqual({ ...key, ...unset, properties: null, schema: null, editableSchemaMetadata: null });
    // A stamp naming none of the aspects DataHub reads answers no dataset, as DataHub's batch get finds none.
    expect(await read('browsePathsV2:0')).toBeNull();
    // Not stored, or a urn of another type: null, as `dataset` answers.
    const other = async (urn: string) => (await api.query(`{ versionedDataset(urn: "${urn}") { urn } }`)).versionedDataset;
    expect(await other('urn:li:dataset:(urn:li:dataPlatform:kafka,never-written,PROD)')).toBeNull();
    expect(await other('urn:li:chart:(looker,1)')).toBeNull();
  });

  it('answers several versions in one request, each from its own stamp', async () => {
    const api = await history();
    const both = await api.query(`{
      old: versionedDataset(urn: "${URN}", versionStamp: "schemaMetadata:1") { schema { fields { fieldPath } } }
      now: versionedDataset(urn: "${URN}", versionStamp: "schemaMetadata:0") { schema { fields { fieldPath } } } }`);
    expect(paths(both.old.schema)).toEqual(FIRST.fields.map((f) => f.fieldPath));
    expect(paths(both.now.schema)).toEqual(SECOND.fields.map((f) => f.fieldPath));
  });

  it("reads the latest aspects of every dataset a request asks for in one statement (batched, as DataHub's batch get)", async () => {
    const statements: string[] = [];
    const counting = {
      open: async () => {
        const db = await databases.open();
        const [all, get] = [db.all.bind(db), db.get.bind(db)];
        db.all = <Row>(sql: string, params?: readonly unknown[]) => (statements.push(sql), all<Row>(sql, params));
        db.get = <Row>(sql: string, params?: readonly unknown[]) => (statements.push(sql), get<Row>(sql, params));
        return db;
      },
    };
    const api = await goldenGraphql(counting, []);
    const urns = ['a', 'b', 'c'].map((name) => URN.replace('test-timeline-sample-kafka', name));
    await api.service.ingest(
      SYSTEM_ACTOR,
      urns.map((urn) => upsert(urn, 'schemaMetadata', FIRST)),
      { batch: true },
    );
    const aliases = (stamp: string) =>
      `{ ${urns.map((urn, i) => `v${i}: versionedDataset(urn: "${urn}", versionStamp: "${stamp}") { name schema { fields { fieldPath } } }`).join(' ')} }`;
    const reads = async (stamp: string) => {
      statements.length = 0;
      const answer = await api.query(aliases(stamp));
      expect(Object.values(answer).map((v: any) => v.schema && paths(v.schema))).toEqual(
        urns.map(() => (stamp.endsWith(':0') ? paths(FIRST) : null)),
      );
      return statements.filter((sql) => sql.includes('metadata_aspect_v2')).length;
    };
    expect(await reads('schemaMetadata:0')).toBe(1);
    // A version of the history is one read of its own per dataset, after the one read of the latest (the keys).
    expect(await reads('schemaMetadata:1')).toBe(1 + urns.length);
  });

  it("refuses a stamp it cannot read with a 400 naming it (DataHub's VersionedUrnUtils texts)", async () => {
    const api = await history();
    const refused = async (stamp: string) => errorOf(await api.ui(stamp));
    for (const stamp of ['schemaMetadata', 'schemaMetadata:1:2', 'schemaMetadata:1;;status:0', ';schemaMetadata:1', 'a::1'])
      expect(await refused(stamp)).toEqual([{ message: `Invalid version stamp cannot be parsed: ${stamp}`, code: 400 }]);
    expect(await refused('schemaMetadata:one')).toEqual([{ message: 'Invalid value for aspect version: one', code: 400 }]);
    expect(await refused('schemaMetadata:1.5')).toEqual([{ message: 'Invalid value for aspect version: 1.5', code: 400 }]);
    expect(await refused('schemaMetadata:9223372036854775808')).toEqual([
      { message: 'Invalid value for aspect version: 9223372036854775808', code: 400 },
    ]);
    // What Java's split and Long.valueOf accept: trailing separators, a signed version, the last of a name given twice.
    expect(parseVersionStamp('schemaMetadata:1;')).toEqual(new Map([['schemaMetadata', 1]]));
    expect(parseVersionStamp('schemaMetadata:+1;status:0:')).toEqual(
      new Map([
        ['schemaMetadata', 1],
        ['status', 0],
      ]),
    );
    expect(parseVersionStamp('schemaMetadata:0;schemaMetadata:1')).toEqual(new Map([['schemaMetadata', 1]]));
  });

  it('answers no dataset to a caller who may not view it when VIEW_AUTHORIZATION_ENABLED is on (canView), as `dataset` does', async () => {
    const api = await history({ view: true });
    const olive = 'urn:li:corpuser:olive';
    const asked = async (context: ApiContext) => {
      const result = await api.ui('schemaMetadata:1', context);
      expect(result.errors).toBeUndefined();
      return result.data!.versionedDataset;
    };
    const refused: ApiContext = { actor: { urn: olive, privileges: new Set() }, requestId: 'versioned-refused' };
    // DataHub's "All Users - View Entity Page" policy lets anyone view it; deactivated (as an operator may), it refuses.
    expect(paths((await asked({ ...refused, requestId: 'versioned-all-users' })).schema)).toEqual(FIRST.fields.map((f) => f.fieldPath));
    await deactivateAllUsersPolicies(api.service);
    expect(await asked(refused)).toBeNull();
    const allowed = await asked(actor(olive).context);
    expect(paths(allowed.schema)).toEqual(FIRST.fields.map((f) => f.fieldPath));
    // Once she owns it, she views it without the privilege (an owner's view, as DataHub's default policies grant).
    await api.service.ingest(
      SYSTEM_ACTOR,
      [upsert(URN, 'ownership', { owners: [{ owner: olive, type: 'DATAOWNER' }], lastModified: { time: 0, actor: olive } })],
      { batch: false },
    );
    expect(paths((await asked({ ...refused, requestId: 'versioned-owner' })).schema)).toEqual(FIRST.fields.map((f) => f.fieldPath));
  });
});
