import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Tag mutations on entities (entities-api §10) over DataHub's bootstrap file (see datasets.e2e.test.ts).
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
const ABSENT = 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)';
const enc = encodeURIComponent;

const ADD = `mutation ($input: TagAssociationInput!) { addTag(input: $input) }`;
const ADD_MANY = `mutation ($input: AddTagsInput!) { addTags(input: $input) }`;
const REMOVE = `mutation ($input: TagAssociationInput!) { removeTag(input: $input) }`;
const BATCH_ADD = `mutation ($input: BatchAddTagsInput!) { batchAddTags(input: $input) }`;
const BATCH_REMOVE = `mutation ($input: BatchRemoveTagsInput!) { batchRemoveTags(input: $input) }`;

let mds: Mds;
let reader: string;
const createTag = (id: string) => mds.graphql(`mutation { createTag(input: { id: "${id}", name: "${id}" }) }`);
const tagsOf = async (urn: string) => {
  const { body } = await mds.clientFor(mds.rootToken).get(`/aspects/${enc(urn)}?aspect=globalTags&version=0`);
  return (body?.aspect?.['com.linkedin.common.GlobalTags']?.tags ?? []).map((t: { tag: string }) => t.tag);
};
const versionsOf = async (urn: string, aspect: string) => (await mds.domains.entities.store.versions(urn, aspect)).map((v) => v.version);

beforeAll(async () => {
  mds = await startMds();
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  await ingestSnapshots(mds);
  for (const id of ['pii', 'gold', 'raw']) await createTag(id);
});
afterAll(() => mds?.close());

describe('addTag, addTags, removeTag on an entity', () => {
  it('appends new tags after the ones there, skips those present without a new version, removes, and absent removes succeed', async () => {
    const before = await tagsOf(HIVE);
    expect((await mds.graphql(ADD, { input: { tagUrn: 'urn:li:tag:pii', resourceUrn: HIVE } })).body).toEqual({ data: { addTag: true } });
    expect(await tagsOf(HIVE)).toEqual([...before, 'urn:li:tag:pii']);
    const versions = await versionsOf(HIVE, 'globalTags');
    await mds.graphql(ADD_MANY, { input: { tagUrns: ['urn:li:tag:pii'], resourceUrn: HIVE } });
    expect(await versionsOf(HIVE, 'globalTags')).toEqual(versions);
    await mds.graphql(ADD_MANY, { input: { tagUrns: ['urn:li:tag:gold', 'urn:li:tag:raw'], resourceUrn: HIVE } });
    expect(await tagsOf(HIVE)).toEqual([...before, 'urn:li:tag:pii', 'urn:li:tag:gold', 'urn:li:tag:raw']);
    expect((await mds.graphql(REMOVE, { input: { tagUrn: 'urn:li:tag:gold', resourceUrn: HIVE } })).body.data.removeTag).toBe(true);
    expect((await mds.graphql(REMOVE, { input: { tagUrn: 'urn:li:tag:gold', resourceUrn: HIVE } })).body.data.removeTag).toBe(true);
    expect(await tagsOf(HIVE)).toEqual([...before, 'urn:li:tag:pii', 'urn:li:tag:raw']);
    // The GraphQL face reads what the mutations wrote.
    const { body } = await mds.graphql(`query { dataset(urn: "${HIVE}") { tags { tags { tag { urn properties { name } } } } } }`);
    expect(body.data.dataset.tags.tags.at(-1)).toEqual({ tag: { urn: 'urn:li:tag:raw', properties: { name: 'raw' } } });
  });

  it('refuses with DataHub’s texts (T1-T4) and writes nothing', async () => {
    const versions = await versionsOf(KAFKA, 'globalTags');
    const cases: [Record<string, unknown>, string][] = [
      [
        { tagUrn: 'urn:li:corpuser:jdoe', resourceUrn: KAFKA },
        'Failed to validate label with urn urn:li:corpuser:jdoe. Urn type does not match entity type tag..',
      ],
      [{ tagUrn: 'urn:li:tag:nowhere', resourceUrn: KAFKA }, 'Failed to validate label with urn urn:li:tag:nowhere. Urn does not exist.'],
      [{ tagUrn: 'urn:li:tag:pii', resourceUrn: ABSENT }, `Failed to update resource with urn ${ABSENT}. Entity does not exist.`],
      [
        { tagUrn: 'urn:li:tag:pii', resourceUrn: KAFKA, subResourceType: 'DATASET_FIELD' },
        `Failed to update resource with urn ${KAFKA}. SubResourceType (DATASET_FIELD) provided without a subResource.`,
      ],
      [
        { tagUrn: 'urn:li:tag:pii', resourceUrn: KAFKA, subResource: 'id' },
        `Failed to updates resource with urn ${KAFKA}. SubResource (id) provided without a subResourceType.`,
      ],
    ];
    for (const [input, message] of cases) expect(graphqlError(await mds.graphql(ADD, { input }))).toEqual({ message, code: 400 });
    expect(await versionsOf(KAFKA, 'globalTags')).toEqual(versions);
  });

  it('a Reader is refused with the reference 403 text, and nothing is written', async () => {
    const result = await mds.graphql(ADD, { input: { tagUrn: 'urn:li:tag:pii', resourceUrn: KAFKA } }, reader);
    expect(graphqlError(result)).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
    expect(await tagsOf(KAFKA)).not.toContain('urn:li:tag:pii');
  });
});

describe('tags on a dataset field', () => {
  it('go to the field’s editableSchemaMetadata entry, never to the ingested schema; T5 and T6 name the field', async () => {
    const fieldPath = (await mds.domains.entities.store.get(HIVE, 'schemaMetadata'))!.value.fields as { fieldPath: string }[];
    const field = fieldPath[0]!.fieldPath;
    const schemaBefore = await versionsOf(HIVE, 'schemaMetadata');
    await mds.graphql(ADD, {
      input: { tagUrn: 'urn:li:tag:pii', resourceUrn: HIVE, subResourceType: 'DATASET_FIELD', subResource: field },
    });
    const editable = (await mds.domains.entities.store.get(HIVE, 'editableSchemaMetadata'))!.value as {
      editableSchemaFieldInfo: { fieldPath: string; globalTags?: { tags: { tag: string }[] } }[];
    };
    expect(editable.editableSchemaFieldInfo.find((f) => f.fieldPath === field)?.globalTags?.tags).toEqual([{ tag: 'urn:li:tag:pii' }]);
    expect(await versionsOf(HIVE, 'schemaMetadata')).toEqual(schemaBefore);
    const onField = (urn: string, subResource: string) => ({
      input: { tagUrn: 'urn:li:tag:pii', resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource },
    });
    const noSchema = 'urn:li:dataset:(urn:li:dataPlatform:kafka,no_schema,PROD)';
    await mds.post('/aspects?action=ingestProposal', {
      proposal: {
        entityType: 'dataset',
        entityUrn: noSchema,
        changeType: 'UPSERT',
        aspectName: 'status',
        aspect: { contentType: 'application/json', value: '{"removed":false}' },
      },
    });
    expect(graphqlError(await mds.graphql(ADD, onField(noSchema, 'id')))).toEqual({
      message: `Failed to update ${noSchema} & field id. ${noSchema} has no schema.`,
      code: 400,
    });
    expect(graphqlError(await mds.graphql(ADD, onField(HIVE, 'nope')))).toEqual({
      message: `Failed to update ${HIVE} & field nope. Field nope does not exist in the datasets schema.`,
      code: 400,
    });
  });
});

describe('batchAddTags and batchRemoveTags', () => {
  it('check every resource before writing any: one absent resource and nothing is written', async () => {
    const before = await tagsOf(KAFKA);
    const refused = await mds.graphql(BATCH_ADD, {
      input: { tagUrns: ['urn:li:tag:gold'], resources: [{ resourceUrn: KAFKA }, { resourceUrn: ABSENT }] },
    });
    expect(graphqlError(refused)).toEqual({ message: `Failed to update resource with urn ${ABSENT}. Entity does not exist.`, code: 400 });
    expect(await tagsOf(KAFKA)).toEqual(before);
    const both = [{ resourceUrn: KAFKA }, { resourceUrn: HIVE }];
    expect((await mds.graphql(BATCH_ADD, { input: { tagUrns: ['urn:li:tag:gold'], resources: both } })).body.data.batchAddTags).toBe(true);
    expect(await tagsOf(KAFKA)).toContain('urn:li:tag:gold');
    expect(await tagsOf(HIVE)).toContain('urn:li:tag:gold');
    await mds.graphql(BATCH_REMOVE, { input: { tagUrns: ['urn:li:tag:gold'], resources: both } });
    expect(await tagsOf(KAFKA)).not.toContain('urn:li:tag:gold');
    expect(await tagsOf(HIVE)).not.toContain('urn:li:tag:gold');
  });
});

describe('concurrency', () => {
  it('50 concurrent addTag of different tags to one dataset: all 50 there, the version history gap-free', async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
    const ids = Array.from({ length: 50 }, (_, i) => `c${i}`);
    for (const id of ids) await createTag(id);
    const results = await Promise.all(ids.map((id) => mds.graphql(ADD, { input: { tagUrn: `urn:li:tag:${id}`, resourceUrn: urn } })));
    expect(results.every((r) => r.body.data?.addTag === true)).toBe(true);
    expect((await tagsOf(urn)).sort()).toEqual(ids.map((id) => `urn:li:tag:${id}`).sort());
    const versions = await versionsOf(urn, 'globalTags');
    expect(versions).toEqual([0, ...Array.from({ length: versions.length - 1 }, (_, i) => i + 1)]);
    expect(versions.length).toBe(50);
  });
});

describe('deleteTag', () => {
  it('also takes the tag off every entity and dataset field that carries it', async () => {
    await createTag('doomed');
    const field = ((await mds.domains.entities.store.get(HIVE, 'schemaMetadata'))!.value.fields as { fieldPath: string }[])[0]!.fieldPath;
    await mds.graphql(ADD, { input: { tagUrn: 'urn:li:tag:doomed', resourceUrn: KAFKA } });
    await mds.graphql(ADD, {
      input: { tagUrn: 'urn:li:tag:doomed', resourceUrn: HIVE, subResourceType: 'DATASET_FIELD', subResource: field },
    });
    const fieldTags = async () => {
      const editable = (await mds.domains.entities.store.get(HIVE, 'editableSchemaMetadata'))!.value as {
        editableSchemaFieldInfo: { fieldPath: string; globalTags?: { tags: { tag: string }[] } }[];
      };
      return editable.editableSchemaFieldInfo.find((f) => f.fieldPath === field)?.globalTags?.tags.map((t) => t.tag);
    };
    expect(await tagsOf(KAFKA)).toContain('urn:li:tag:doomed');
    expect(await fieldTags()).toContain('urn:li:tag:doomed');

    expect((await mds.graphql(`mutation { deleteTag(urn: "urn:li:tag:doomed") }`)).body).toEqual({ data: { deleteTag: true } });
    expect(await tagsOf(KAFKA)).not.toContain('urn:li:tag:doomed');
    expect(await fieldTags()).not.toContain('urn:li:tag:doomed');
    expect(await fieldTags()).toContain('urn:li:tag:pii'); // other tags of the field stay
    const tagged = await mds
      .clientFor(mds.rootToken)
      .get(`/relationships?urn=${enc('urn:li:tag:doomed')}&direction=INCOMING&types=List(TaggedWith)`);
    expect(tagged.body.relationships).toEqual([]);
  });
});
