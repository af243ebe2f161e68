import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { ingestSampleData } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';
import { sendUiMutation, storedAspect } from './support/ui-mutations';
import { readUiDocuments } from './webui/ui-documents';
import { bootstrapPlaceholders, fillPlaceholders, readUiVariables } from './webui/ui-queries';

// Saved queries, hand-drawn lineage, asset versions and ER model relationships (issue 33) as DataHub's web UI sends
// them (query.graphql, mutations.graphql, versioning.graphql, ermodelrelationship.graphql and the variables of
// variables.json) to a real mds over DataHub's bootstrap sample; each case names the DataHub resolver it follows.
// createQuery and listQueries select a fragment (searchResultFields) that waits on business attributes: they are sent
// with the UI's variables and a smaller selection.
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const HDFS = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)';
const placeholders = bootstrapPlaceholders().values;
const VERSION_SET = placeholders.$VERSION_SET_URN as string;
const ui = readUiDocuments();
const variables = readUiVariables();
/** The variables the UI sends for `name` (its `call`th case), placeholders filled. */
const uiVariables = (name: string, overrides: Record<string, unknown> = {}, call = 0) =>
  fillPlaceholders((variables.queries[name] ?? variables.mutations[name])![call]!.variables, { ...placeholders, ...overrides }) as Record<
    string,
    any
  >;
const uiQuery = (name: string) => print(ui.operations.find((op) => op.name === name)!.document);

let mds: Mds;
let reader: string;
let editor: string;
beforeAll(async () => {
  mds = await startMds();
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  editor = await mds.tokenFor('urn:li:corpuser:editor', 'urn:li:dataHubRole:Editor');
  await ingestSampleData(mds);
});
afterAll(() => mds?.close());

describe('updateLineage (UpdateLineageResolver, LineageService.updateDatasetLineage)', () => {
  it("the UI's edge becomes a hand-drawn upstream of the dataset, read back as lineage; a Reader is refused", async () => {
    const refused = await sendUiMutation(mds, 'updateLineage', { token: reader });
    expect(graphqlError(refused)).toEqual({ message: `Unauthorized to edit ${HDFS} lineage for dataset`, code: 403 });
    // The sample already derives Hive from HDFS: the edge is removed first (the UI's input, as edgesToRemove).
    const removed = await sendUiMutation(mds, 'updateLineage', {
      token: editor,
      change: (v) => Object.assign(v.input, { edgesToRemove: v.input.edgesToAdd, edgesToAdd: [] }),
    });
    expect(removed.body).toEqual({ data: { updateLineage: true } });
    const left = ((await storedAspect(mds, HIVE, 'upstreamLineage'))?.upstreams ?? []) as Record<string, unknown>[];
    expect(left.map((u) => u.dataset)).not.toContain(HDFS);
    const added = await sendUiMutation(mds, 'updateLineage', { token: editor });
    expect(added.body).toEqual({ data: { updateLineage: true } });
    const upstreams = (await storedAspect(mds, HIVE, 'upstreamLineage'))!.upstreams as Record<string, unknown>[];
    expect(upstreams.find((u) => u.dataset === HDFS)).toMatchObject({
      type: 'TRANSFORMED',
      properties: { source: 'UI' },
      created: { actor: 'urn:li:corpuser:editor' },
    });
    const lineage = await mds.graphql(
      `query($urn: String!) { dataset(urn: $urn) { lineage(input: { direction: UPSTREAM, start: 0, count: 50 }) { relationships { entity { urn } isManual } } } }`,
      { urn: HIVE },
      reader,
    );
    expect(lineage.body.data.dataset.lineage.relationships).toContainEqual({ entity: { urn: HDFS }, isManual: true });
  });
});

describe('saved queries (CreateQueryResolver, ListQueriesResolver, DeleteQueryResolver)', () => {
  it("a query created with the UI's variables is listed on its dataset's tab, and the UI's deleteQuery removes it", async () => {
    const create = `mutation createQuery($input: CreateQueryInput!) { createQuery(input: $input) { urn properties { name source statement { value language } createdOn { actor { urn } } } subjects { dataset { urn } } } }`;
    expect(graphqlError(await mds.graphql(create, uiVariables('createQuery'), reader))).toEqual({
      message: 'Unauthorized to create Query. Please contact your DataHub administrator for more information.',
      code: 403,
    });
    const created = await mds.graphql(create, uiVariables('createQuery'), editor);
    expect(created.body.errors).toBeUndefined();
    const query = created.body.data.createQuery;
    expect(query).toMatchObject({
      properties: {
        name: 'Daily orders',
        source: 'MANUAL',
        statement: { value: 'SELECT day, count(*) FROM orders GROUP BY day', language: 'SQL' },
        createdOn: { actor: { urn: 'urn:li:corpuser:editor' } },
      },
      subjects: [{ dataset: { urn: HIVE } }],
    });
    const list = `query listQueries($input: ListQueriesInput!) { listQueries(input: $input) { start total count queries { urn } } }`;
    // useHighlightedQueries' variables: MANUAL queries of the dataset.
    expect((await mds.graphql(list, uiVariables('listQueries'), reader)).body.data.listQueries).toEqual({
      start: 0,
      total: 1,
      count: 1,
      queries: [{ urn: query.urn }],
    });

    expect(graphqlError(await sendUiMutation(mds, 'deleteQuery', { token: reader, overrides: { $QUERY_URN: query.urn } }))).toEqual({
      message: 'Unauthorized to delete Query. Please contact your DataHub administrator if this needs corrective action.',
      code: 403,
    });
    const deleted = await sendUiMutation(mds, 'deleteQuery', { token: editor, overrides: { $QUERY_URN: query.urn } });
    expect(deleted.body).toEqual({ data: { deleteQuery: true } });
    expect(await storedAspect(mds, query.urn, 'queryProperties')).toBeUndefined();
    expect((await mds.graphql(list, uiVariables('listQueries'), reader)).body.data.listQueries.total).toBe(0);
  });
});

describe('asset versions (LinkAssetVersionResolver, VersionsSearchResolver, UnlinkAssetVersionResolver)', () => {
  it("the UI links the dataset into a new version set, lists the set's versions, and unlinks it", async () => {
    expect(graphqlError(await sendUiMutation(mds, 'linkAssetVersion', { token: reader }))).toEqual({
      message: `urn:li:corpuser:reader is unauthorized to UPDATE entities ${VERSION_SET} and ${HIVE}`,
      code: 403,
    });
    const linked = await sendUiMutation(mds, 'linkAssetVersion', { token: editor });
    expect(linked.body.errors).toBeUndefined();
    const version = {
      urn: HIVE,
      type: 'DATASET',
      versionProperties: expect.objectContaining({
        versionSet: { urn: VERSION_SET, type: 'VERSION_SET' },
        isLatest: true,
        version: { versionTag: 'v2' },
        aliases: [],
        comment: 'new schema',
        createdInSource: null,
      }),
    };
    expect(linked.body.data.linkAssetVersion.versionsSearch).toMatchObject({ count: 1, total: 1, searchResults: [{ entity: version }] });
    expect(await storedAspect(mds, VERSION_SET, 'versionSetProperties')).toEqual({
      latest: HIVE,
      versioningScheme: 'ALPHANUMERIC_GENERATED_BY_DATAHUB',
    });

    // The UI's searchAcrossVersions (VersionsDrawer).
    const drawer = await mds.graphql(uiQuery('searchAcrossVersions'), uiVariables('searchAcrossVersions'), reader);
    expect(drawer.body.errors).toBeUndefined();
    expect(drawer.body.data.versionSet.versionsSearch).toMatchObject({ total: 1, searchResults: [{ entity: version }] });

    const unlinked = await sendUiMutation(mds, 'unlinkAssetVersion', { token: editor });
    expect(unlinked.body.errors).toBeUndefined();
    expect(unlinked.body.data.unlinkAssetVersion.versionsSearch).toMatchObject({ total: 0, searchResults: [] });
    expect(await storedAspect(mds, HIVE, 'versionProperties')).toBeUndefined();
    expect((await mds.graphql(`{ versionSet(urn: "${VERSION_SET}") { urn } }`, {}, reader)).body.data).toEqual({ versionSet: null });
  });
});

describe('ER model relationships (CreateERModelRelationshipResolver, UpdateERModelRelationshipResolver)', () => {
  it("the UI's create writes the relationship between the two datasets, its update rewrites it", async () => {
    expect(graphqlError(await sendUiMutation(mds, 'createERModelRelationship', { token: reader }))).toEqual({
      message: 'Unauthorized to create erModelRelationship. Please contact your DataHub administrator.',
      code: 403,
    });
    const created = await sendUiMutation(mds, 'createERModelRelationship', { token: editor });
    expect(created.body.errors).toBeUndefined();
    const { urn, type, id } = created.body.data.createERModelRelationship;
    expect([urn, type]).toEqual([`urn:li:erModelRelationship:${id}`, 'ER_MODEL_RELATIONSHIP']);
    expect(await storedAspect(mds, urn, 'erModelRelationshipProperties')).toMatchObject({
      name: 'orders_customers',
      source: HDFS,
      destination: HIVE,
      relationshipFieldMappings: [{ sourceField: 'field_foo', destinationField: 'field_foo' }],
      cardinality: 'N_ONE',
      created: { actor: 'urn:li:corpuser:editor' },
    });
    const updated = await sendUiMutation(mds, 'updateERModelRelationship', {
      token: editor,
      overrides: { $ER_MODEL_RELATIONSHIP_URN: urn },
    });
    expect(updated.body).toEqual({ data: { updateERModelRelationship: true } });
    expect(await storedAspect(mds, urn, 'editableERModelRelationshipProperties')).toEqual({
      name: 'orders_customers',
      description: 'Each order has one customer',
    });
    expect(graphqlError(await sendUiMutation(mds, 'updateERModelRelationship', { token: editor }))).toEqual({
      message: `ER model relationship ${placeholders.$ER_MODEL_RELATIONSHIP_URN} does not exist`,
      code: 404,
    });
  });
});
