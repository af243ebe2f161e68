import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, type RunGraphQL } from './support/clients';
import { startMds, type Mds } from './support/mds';

// The tag lifecycle as DataHub users drive it, run once per real client from npm.
const CREATE = `mutation create($input: CreateTagInput!) { createTag(input: $input) }`;
const GET = `query get($urn: String!) { tag(urn: $urn) { urn type name properties { name description colorHex } ownership { owners { owner { ... on CorpUser { urn } } } } created { actor time } lastModified { actor } } }`;
const UPDATE = `mutation update($urn: String!, $input: TagUpdateInput!) { updateTag(urn: $urn, input: $input) { properties { name description } } }`;
const COLOR = `mutation color($urn: String!, $colorHex: String!) { setTagColor(urn: $urn, colorHex: $colorHex) }`;
const DESCRIBE = `mutation describe($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`;
const DELETE = `mutation del($urn: String!) { deleteTag(urn: $urn) }`;
const SEARCH = `query search($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { start count total searchResults { entity { urn type ... on Tag { properties { name description colorHex } } } } } }`;
const FORBIDDEN = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

const EDITOR = 'urn:li:corpuser:editor';
let mds: Mds;
let editorToken: string;
let readerToken: string;

beforeAll(async () => {
  mds = await startMds();
  editorToken = await mds.tokenFor(EDITOR, 'urn:li:dataHubRole:Editor');
  readerToken = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

describe.each(Object.keys(clients))('the tag lifecycle through %s', (clientName) => {
  let asEditor: RunGraphQL;
  let asReader: RunGraphQL;
  const prefix = clientName.replace(/\W/g, '');
  const WRITTEN = { name: 'PII ✓ "quoted"', description: "Personal data'; DROP TABLE tags;--" };
  /** A tag of the calling test's own: each test makes the data it reads, whichever tests ran before it. */
  const ownTag = async (id: string): Promise<string> =>
    (await asEditor(CREATE, { input: { id: `${prefix}-${id}`, ...WRITTEN } })).data.createTag;

  beforeAll(() => {
    asEditor = clients[clientName]!(mds.url, editorToken);
    asReader = clients[clientName]!(mds.url, readerToken);
  });

  it('creates a tag with an id and answers its urn', async () => {
    const { data, errors } = await asEditor(CREATE, { input: { id: `${prefix}-pii`, ...WRITTEN } });
    expect(errors).toBeUndefined();
    expect(data).toEqual({ createTag: `urn:li:tag:${prefix}-pii` });
  });

  it('creates a tag without an id under a random UUID', async () => {
    const { data } = await asEditor(CREATE, { input: { name: `${prefix} generated` } });
    expect(data.createTag).toMatch(/^urn:li:tag:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('refuses a duplicate id with DataHub’s message', async () => {
    await ownTag('twice');
    const { errors } = await asEditor(CREATE, { input: { id: `${prefix}-twice`, name: 'again' } });
    expect(errors?.[0]).toMatchObject({ message: 'This Tag already exists!', extensions: { code: 400, type: 'BAD_REQUEST' } });
  });

  it('reads the tag back exactly as written, with its audit stamps', async () => {
    const urn = await ownTag('read');
    const { data } = await asReader(GET, { urn });
    expect(data.tag).toMatchObject({
      urn,
      type: 'TAG',
      properties: { name: 'PII ✓ "quoted"', description: "Personal data'; DROP TABLE tags;--", colorHex: null },
      ownership: { owners: [{ owner: { urn: EDITOR } }] },
      created: { actor: EDITOR, time: expect.any(Number) },
    });
    expect((await asReader(GET, { urn: 'urn:li:tag:nope' })).data.tag).toBeNull();
  });

  it('updates, colors and describes the tag', async () => {
    const urn = await ownTag('update');
    const updated = await asEditor(UPDATE, { urn, input: { urn, name: `${prefix} Personal`, description: 'updated 🙂' } });
    expect(updated.data.updateTag.properties).toEqual({ name: `${prefix} Personal`, description: 'updated 🙂' });
    expect((await asEditor(COLOR, { urn, colorHex: '#FF0000' })).data.setTagColor).toBe(true);
    expect((await asEditor(DESCRIBE, { input: { resourceUrn: urn, description: 'sensitive personal data' } })).data.updateDescription).toBe(
      true,
    );
    const { data } = await asReader(GET, { urn });
    expect(data.tag.properties).toEqual({ name: `${prefix} Personal`, description: 'sensitive personal data', colorHex: '#FF0000' });
    expect(data.tag.lastModified.actor).toBe(EDITOR);
  });

  it('refuses a bad color with a 400 naming the rule', async () => {
    const urn = await ownTag('color');
    const { errors } = await asEditor(COLOR, { urn, colorHex: 'red' });
    expect(errors?.[0]?.extensions).toMatchObject({ code: 400, type: 'BAD_REQUEST' });
    expect(errors?.[0]?.message).toMatch(/colorHex/);
  });

  it('finds tags by word prefix and pages through them stably with an exact total', async () => {
    for (let i = 0; i < 12; i++)
      await asEditor(CREATE, { input: { id: `${prefix}-page-${String(i).padStart(2, '0')}`, name: `${prefix}paging item ${i}` } });
    const found = await asReader(SEARCH, { input: { types: ['TAG'], query: `${prefix}pag`, start: 0, count: 100 } });
    expect(found.data.searchAcrossEntities.total).toBe(12);
    const pages = [];
    for (let start = 0; start < 12; start += 5) {
      const { data } = await asReader(SEARCH, { input: { types: ['TAG'], query: `${prefix}pag`, start, count: 5 } });
      expect(data.searchAcrossEntities).toMatchObject({ start, total: 12 });
      pages.push(...data.searchAcrossEntities.searchResults.map((r: any) => r.entity.urn));
    }
    expect(new Set(pages).size).toBe(12);
    const urn = await ownTag('described');
    await asEditor(DESCRIBE, { input: { resourceUrn: urn, description: `${prefix} sensitive personal data` } });
    const described = await asReader(SEARCH, { input: { types: ['TAG'], query: `${prefix} sensitiv`, start: 0, count: 10 } });
    expect(described.data.searchAcrossEntities.searchResults.map((r: any) => r.entity.urn)).toContain(urn);
    const all = await asReader(SEARCH, { input: { types: ['TAG'], query: '*', start: 0, count: 1 } });
    expect(all.data.searchAcrossEntities.total).toBeGreaterThanOrEqual(13);
  });

  it("refuses a reader's create with DataHub's 403", async () => {
    const { data, errors } = await asReader(CREATE, { input: { id: `${prefix}-nope`, name: 'nope' } });
    expect(data?.createTag ?? null).toBeNull();
    expect(errors?.[0]).toMatchObject({ message: FORBIDDEN, extensions: { code: 403, type: 'UNAUTHORIZED' } });
  });

  it('deletes the tag; a second delete is a 404 naming it', async () => {
    const urn = await ownTag('delete');
    expect((await asEditor(DELETE, { urn })).data.deleteTag).toBe(true);
    expect((await asReader(GET, { urn })).data.tag).toBeNull();
    const { errors } = await asEditor(DELETE, { urn });
    expect(errors?.[0]).toMatchObject({ extensions: { code: 404, type: 'NOT_FOUND' } });
    expect(errors?.[0]?.message).toContain(urn);
  });
});

it('100 parallel creates of one id over HTTP: exactly one succeeds', async () => {
  const attempts = await Promise.all(
    Array.from({ length: 100 }, () => mds.graphql(CREATE, { input: { id: 'race', name: 'race' } }, editorToken)),
  );
  const won = attempts.filter((a) => a.body.data?.createTag === 'urn:li:tag:race');
  const lost = attempts.filter((a) => a.body.errors?.[0]?.message === 'This Tag already exists!');
  expect([won.length, lost.length]).toEqual([1, 99]);
});
