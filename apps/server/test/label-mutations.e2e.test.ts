import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { ingestSampleData } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';
import { sendUiMutation, storedAspect } from './support/ui-mutations';

// The edits of DataHub's web UI's mutations.graphql (issue 33) sent as the UI sends them (its documents and the
// variables of variables.json) to a real mds over DataHub's bootstrap sample, read back from the stored aspects and
// GraphQL. Each case names the DataHub resolver it follows.
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
const TERM = 'urn:li:glossaryTerm:CustomerAccount';
const OTHER_TERM = 'urn:li:glossaryTerm:SavingAccount';
const DASHBOARD = 'urn:li:dashboard:(looker,baz)';
const ABSENT = 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)';
const UNAUTHORIZED = { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 };

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

const termsOf = async (urn: string) => ((await storedAspect(mds, urn, 'glossaryTerms'))?.terms ?? []).map((t: { urn: string }) => t.urn);

describe('glossary terms on entities and fields (AddTermResolver, AddTermsResolver, RemoveTermResolver, BatchAddTermsResolver, BatchRemoveTermsResolver)', () => {
  it('adds a term with the caller’s audit stamp, keeps one already there, removes it, and GraphQL reads it', async () => {
    const before = await termsOf(HIVE);
    expect((await sendUiMutation(mds, 'addTerm', { token: editor })).body).toEqual({ data: { addTerm: true } });
    const stored = await storedAspect(mds, HIVE, 'glossaryTerms');
    expect(stored?.terms.map((t: { urn: string }) => t.urn)).toEqual([...before.filter((t: string) => t !== TERM), TERM]);
    expect(stored?.auditStamp.actor).toBe('urn:li:corpuser:editor');
    expect((await sendUiMutation(mds, 'addTerms')).body).toEqual({ data: { addTerms: true } });
    expect((await termsOf(HIVE)).filter((t: string) => t === TERM)).toHaveLength(1);
    const { body } = await mds.graphql(`query { dataset(urn: "${HIVE}") { glossaryTerms { terms { term { urn } } } } }`);
    expect(body.data.dataset.glossaryTerms.terms.map((t: { term: { urn: string } }) => t.term.urn)).toContain(TERM);
    expect((await sendUiMutation(mds, 'removeTerm')).body).toEqual({ data: { removeTerm: true } });
    expect(await termsOf(HIVE)).not.toContain(TERM);
  });

  it('batch forms edit every resource, a field’s terms in editableSchemaMetadata', async () => {
    const resources = [{ resourceUrn: KAFKA }, { resourceUrn: HIVE, subResourceType: 'DATASET_FIELD', subResource: 'field_foo' }];
    const batch = (name: string, termUrns: string[]) =>
      sendUiMutation(mds, name, { change: (v) => Object.assign(v.input, { termUrns, resources }) });
    expect((await batch('batchAddTerms', [TERM, OTHER_TERM])).body).toEqual({ data: { batchAddTerms: true } });
    expect(await termsOf(KAFKA)).toEqual(expect.arrayContaining([TERM, OTHER_TERM]));
    const field = async () =>
      (await storedAspect(mds, HIVE, 'editableSchemaMetadata'))?.editableSchemaFieldInfo.find(
        (f: { fieldPath: string }) => f.fieldPath === 'field_foo',
      );
    expect((await field()).glossaryTerms.terms.map((t: { urn: string }) => t.urn)).toEqual([TERM, OTHER_TERM]);
    expect((await batch('batchRemoveTerms', [OTHER_TERM])).body).toEqual({ data: { batchRemoveTerms: true } });
    expect(await termsOf(KAFKA)).not.toContain(OTHER_TERM);
    expect((await field()).glossaryTerms.terms.map((t: { urn: string }) => t.urn)).toEqual([TERM]);
  });

  it('refuses a label of another type, an absent term or resource, and a Reader, writing nothing', async () => {
    const before = await storedAspect(mds, KAFKA, 'glossaryTerms');
    const cases: [Record<string, unknown>, { message: string; code: number }, string?][] = [
      [
        { termUrn: 'urn:li:tag:Legacy', resourceUrn: KAFKA },
        { message: 'Failed to validate label with urn urn:li:tag:Legacy. Urn type does not match entity type glossaryTerm..', code: 400 },
      ],
      [
        { termUrn: 'urn:li:glossaryTerm:nowhere', resourceUrn: KAFKA },
        { message: 'Failed to validate label with urn urn:li:glossaryTerm:nowhere. Urn does not exist.', code: 400 },
      ],
      [
        { termUrn: TERM, resourceUrn: ABSENT },
        { message: `Failed to update resource with urn ${ABSENT}. Entity does not exist.`, code: 400 },
      ],
      [{ termUrn: OTHER_TERM, resourceUrn: KAFKA }, UNAUTHORIZED, reader],
    ];
    for (const [input, error, token] of cases) {
      const result = await sendUiMutation(mds, 'addTerm', { token, change: (v) => (v.input = input) });
      expect(graphqlError(result as never)).toEqual(error);
    }
    expect(await storedAspect(mds, KAFKA, 'glossaryTerms')).toEqual(before);
  });
});

const linksOf = async (urn: string) =>
  ((await storedAspect(mds, urn, 'institutionalMemory'))?.elements ?? []).map((l: { url: string; description: string }) => [
    l.url,
    l.description,
  ]);

describe('links (AddLinkResolver, UpdateLinkResolver, RemoveLinkResolver)', () => {
  it('adds a link once, replaces it keeping its creation stamp, and removes it', async () => {
    const before = await linksOf(HIVE);
    expect((await sendUiMutation(mds, 'addLink', { token: editor })).body).toEqual({ data: { addLink: true } });
    expect((await sendUiMutation(mds, 'addLink')).body).toEqual({ data: { addLink: true } });
    expect(await linksOf(HIVE)).toEqual([...before, ['https://wiki.example.com/orders', 'Wiki']]);
    const created = (await storedAspect(mds, HIVE, 'institutionalMemory'))?.elements.at(-1).createStamp;
    expect(created.actor).toBe('urn:li:corpuser:editor');

    const update = await sendUiMutation(mds, 'updateLink', {
      change: (v) => Object.assign(v.input, { resourceUrn: HIVE, currentUrl: 'https://wiki.example.com/orders', currentLabel: 'Wiki' }),
    });
    expect(update.body).toEqual({ data: { updateLink: true } });
    const updated = (await storedAspect(mds, HIVE, 'institutionalMemory'))?.elements.at(-1);
    expect(updated.createStamp).toEqual(created);
    expect(updated.updateStamp.actor).toBe('urn:li:corpuser:datahub');
    const { body } = await mds.graphql(`query { dataset(urn: "${HIVE}") { institutionalMemory { elements { url label } } } }`);
    expect(body.data.dataset.institutionalMemory.elements.at(-1)).toEqual({ url: updated.url, label: updated.description });

    const missing = await sendUiMutation(mds, 'updateLink', {
      change: (v) => Object.assign(v.input, { resourceUrn: HIVE, currentUrl: 'https://nowhere', currentLabel: 'x' }),
    });
    expect(graphqlError(missing as never)).toEqual({
      message: "Failed to update the link 'https://nowhere' with label 'x'. The link does not exist",
      code: 400,
    });
    const removed = await sendUiMutation(mds, 'removeLink', {
      change: (v) => Object.assign(v.input, { resourceUrn: HIVE, linkUrl: updated.url, label: updated.description }),
    });
    expect(removed.body).toEqual({ data: { removeLink: true } });
    expect(await linksOf(HIVE)).toEqual(before);
  });

  it('refuses a url that is none, an absent resource and a Reader', async () => {
    const bad = await sendUiMutation(mds, 'addLink', { change: (v) => (v.input.linkUrl = 'not a url') });
    expect(graphqlError(bad as never)).toEqual({
      message: `Failed to change institutional memory for resource ${HIVE}. Expected an url.`,
      code: 400,
    });
    const absent = await sendUiMutation(mds, 'addLink', { change: (v) => (v.input.resourceUrn = ABSENT) });
    expect(graphqlError(absent as never)).toEqual({
      message: `Failed to change institutional memory for resource ${ABSENT}. Resource does not exist.`,
      code: 400,
    });
    expect(graphqlError((await sendUiMutation(mds, 'addLink', { token: reader })) as never)).toEqual(UNAUTHORIZED);
  });
});

describe('updateEmbed (UpdateEmbedResolver), updateDisplayProperties (UpdateDisplayPropertiesResolver), updateName (UpdateNameResolver)', () => {
  it('updateEmbed sets the render url of a dashboard; an absent entity and a Reader are refused', async () => {
    expect((await sendUiMutation(mds, 'updateEmbed', { token: editor })).body).toEqual({ data: { updateEmbed: true } });
    expect(await storedAspect(mds, DASHBOARD, 'embed')).toEqual({ renderUrl: 'https://looker.example.com/embed/dashboards/1' });
    const read = await mds.graphql(
      `{ dashboard(urn: "${DASHBOARD}") { embed { renderUrl } } dataset(urn: "${HIVE}") { embed { renderUrl } externalUrl } }`,
    );
    expect(read.body.data).toEqual({
      dashboard: { embed: { renderUrl: 'https://looker.example.com/embed/dashboards/1' } },
      dataset: { embed: null, externalUrl: null },
    });
    const absent = await sendUiMutation(mds, 'updateEmbed', { change: (v) => (v.input.urn = ABSENT) });
    expect(graphqlError(absent as never)).toEqual({
      message: `Failed to update embed for entity with urn ${ABSENT}. Entity does not exist!`,
      code: 400,
    });
    expect(graphqlError((await sendUiMutation(mds, 'updateEmbed', { token: reader })) as never)).toEqual(UNAUTHORIZED);
  });

  it('updateDisplayProperties sets a domain’s colour and icon, keeping what the input leaves out; needs MANAGE_DOMAINS', async () => {
    const created = await mds.graphql(`mutation { createDomain(input: { id: "marketing", name: "Marketing" }) }`);
    expect(created.body).toEqual({ data: { createDomain: 'urn:li:domain:marketing' } });
    expect((await sendUiMutation(mds, 'updateDisplayProperties')).body).toEqual({ data: { updateDisplayProperties: true } });
    expect(await storedAspect(mds, 'urn:li:domain:marketing', 'displayProperties')).toEqual({
      colorHex: '#1890ff',
      icon: { iconLibrary: 'MATERIAL', name: 'Storefront', style: 'Outlined' },
    });
    await sendUiMutation(mds, 'updateDisplayProperties', { change: (v) => (v.input = { colorHex: '#000000' }) });
    expect((await storedAspect(mds, 'urn:li:domain:marketing', 'displayProperties'))?.icon.name).toBe('Storefront');
    const read = await mds.graphql(
      `{ domain(urn: "urn:li:domain:marketing") { displayProperties { colorHex icon { iconLibrary name style } } } }`,
    );
    expect(read.body.data.domain.displayProperties).toEqual({
      colorHex: '#000000',
      icon: { iconLibrary: 'MATERIAL', name: 'Storefront', style: 'Outlined' },
    });
    expect(graphqlError((await sendUiMutation(mds, 'updateDisplayProperties', { token: reader })) as never)).toEqual(UNAUTHORIZED);
  });

  it('updateName renames a glossary term (MANAGE_GLOSSARIES), a domain (unique among siblings) and a dataset', async () => {
    expect((await sendUiMutation(mds, 'updateName')).body).toEqual({ data: { updateName: true } });
    expect((await storedAspect(mds, TERM, 'glossaryTermInfo'))?.name).toBe('Orders');
    const { body } = await mds.graphql(`query { glossaryTerm(urn: "${TERM}") { properties { name } } }`);
    expect(body.data.glossaryTerm.properties.name).toBe('Orders');
    // A Reader holds no MANAGE_GLOSSARIES (an Editor does, as DataHub's default Editors policy gives it).
    expect(graphqlError((await sendUiMutation(mds, 'updateName', { token: reader })) as never)).toEqual(UNAUTHORIZED);

    await mds.graphql(`mutation { createDomain(input: { id: "sales", name: "Sales" }) }`);
    const taken = await sendUiMutation(mds, 'updateName', { change: (v) => (v.input = { urn: 'urn:li:domain:sales', name: 'MARKETING' }) });
    expect(graphqlError(taken as never)).toEqual({
      message: '"MARKETING" already exists in this domain. Please pick a unique name.',
      code: 409,
    });
    const renamed = await sendUiMutation(mds, 'updateName', { change: (v) => (v.input = { urn: 'urn:li:domain:sales', name: 'Revenue' }) });
    expect(renamed.body).toEqual({ data: { updateName: true } });
    expect((await storedAspect(mds, 'urn:li:domain:sales', 'domainProperties'))?.name).toBe('Revenue');

    const before = await storedAspect(mds, KAFKA, 'editableDatasetProperties');
    await sendUiMutation(mds, 'updateName', { token: editor, change: (v) => (v.input = { urn: KAFKA, name: 'Kafka orders' }) });
    const edited = await storedAspect(mds, KAFKA, 'editableDatasetProperties');
    expect(edited).toMatchObject({ ...before, name: 'Kafka orders', lastModified: { actor: 'urn:li:corpuser:editor' } });

    const absent = await sendUiMutation(mds, 'updateName', { change: (v) => (v.input = { urn: ABSENT, name: 'x' }) });
    expect(graphqlError(absent as never)).toEqual({ message: `Failed to update ${ABSENT}. ${ABSENT} does not exist.`, code: 400 });
    const tag = await sendUiMutation(mds, 'updateName', { change: (v) => (v.input = { urn: 'urn:li:tag:Legacy', name: 'x' }) });
    expect(graphqlError(tag as never)).toEqual({
      message: 'Failed to update name. Unsupported resource type urn:li:tag:Legacy provided.',
      code: 400,
    });
  });
});

describe('updateDataFlow, updateDataJob (DataFlowUpdateInputMapper, DataJobUpdateInputMapper)', () => {
  it('write the description editor’s text to editableDataFlowProperties / editableDataJobProperties; a Reader is refused', async () => {
    const cases = [
      ['updateDataFlow', 'urn:li:dataFlow:(airflow,dag_abc,PROD)', 'editableDataFlowProperties', 'dataFlow'],
      ['updateDataJob', 'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)', 'editableDataJobProperties', 'dataJob'],
    ] as const;
    for (const [mutation, urn, aspect, query] of cases) {
      expect(graphqlError((await sendUiMutation(mds, mutation, { token: reader })) as never)).toEqual(UNAUTHORIZED);
      expect(await storedAspect(mds, urn, aspect)).toBeUndefined();
      expect((await sendUiMutation(mds, mutation, { token: editor })).body).toEqual({ data: { [mutation]: { urn } } });
      expect(await storedAspect(mds, urn, aspect)).toMatchObject({
        description: 'Edited in the UI',
        lastModified: { actor: 'urn:li:corpuser:editor' },
      });
      const { body } = await mds.graphql(`query { ${query}(urn: "${urn}") { editableProperties { description } } }`);
      expect(body.data[query].editableProperties).toEqual({ description: 'Edited in the UI' });
    }
  });
});

describe('updateDescription of glossary terms, data products and ML entities (UpdateDescriptionResolver)', () => {
  it('writes a term’s definition, an ML model’s editable description; a Reader is refused', async () => {
    const ML_MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)';
    const describe = (resourceUrn: string, token?: string) =>
      sendUiMutation(mds, 'updateDescription', { token, change: (v) => (v.input = { resourceUrn, description: 'Written in the UI' }) });
    expect(graphqlError((await describe(OTHER_TERM, reader)) as never)).toEqual(UNAUTHORIZED);
    expect((await describe(OTHER_TERM, editor)).body).toEqual({ data: { updateDescription: true } });
    expect((await storedAspect(mds, OTHER_TERM, 'glossaryTermInfo'))?.definition).toBe('Written in the UI');
    const term = await mds.graphql(`{ glossaryTerm(urn: "${OTHER_TERM}") { properties { description } } }`);
    expect(term.body.data.glossaryTerm.properties.description).toBe('Written in the UI');

    expect((await describe(ML_MODEL, editor)).body).toEqual({ data: { updateDescription: true } });
    expect(await storedAspect(mds, ML_MODEL, 'editableMlModelProperties')).toEqual({ description: 'Written in the UI' });
    const model = await mds.graphql(`{ mlModel(urn: "${ML_MODEL}") { editableProperties { description } } }`);
    expect(model.body.data.mlModel.editableProperties.description).toBe('Written in the UI');
  });
});

describe('browsePaths of the asset pages (BrowsePathsMapper)', () => {
  it('answers the stored paths split at /, and none for an entity without them', async () => {
    const { body } = await mds.graphql(
      `{ dataset(urn: "${KAFKA}") { browsePaths { path } } chart(urn: "urn:li:chart:(looker,baz1)") { browsePaths { path } } }`,
    );
    expect(body.data).toEqual({
      dataset: { browsePaths: [{ path: ['prod', 'kafka', 'SampleKafkaDataset'] }] },
      chart: { browsePaths: [] },
    });
  });
});
