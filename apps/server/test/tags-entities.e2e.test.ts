import { openDatabase } from '@mds/db';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir } from './support/child';
import { startMds, type Mds } from './support/mds';

// Tags are entities of the aspect store (entities-api §4.2 `tag`): what GraphQL writes, Rest.li reads, and back.
const enc = encodeURIComponent;
const CREATE = `mutation ($input: CreateTagInput!) { createTag(input: $input) }`;
const TAG = `query ($urn: String!) {
  tag(urn: $urn) { urn name description properties { name description colorHex } ownership { owners { owner { ... on CorpUser { urn } } type } } created { time actor } }
}`;
const SEARCH = `query ($query: String!) { searchAcrossEntities(input: { query: $query, types: [TAG] }) { total searchResults { entity { urn } matchedFields { name value } } } }`;

let mds: Mds;
const get = (path: string) => mds.clientFor(mds.rootToken).get(path);

beforeAll(async () => {
  mds = await startMds();
});
afterAll(() => mds?.close());

describe('tags as entities', () => {
  it('a tag created over GraphQL reads back over /aspects and /entitiesV2 as DataHub aspects', async () => {
    await mds.graphql(CREATE, { input: { id: 'pii', name: 'PII', description: 'Personal data' } });
    expect((await get(`/aspects/${enc('urn:li:tag:pii')}?aspect=tagProperties&version=0`)).body).toEqual({
      aspect: { 'com.linkedin.tag.TagProperties': { name: 'PII', description: 'Personal data' } },
      version: 0,
    });
    const { body } = await get(`/entitiesV2/${enc('urn:li:tag:pii')}`);
    expect(body.entityName).toBe('tag');
    expect(body.aspects.tagKey.value).toEqual({ name: 'pii' });
    expect(body.aspects.ownership.value).toMatchObject({ owners: [{ owner: 'urn:li:corpuser:datahub', type: 'TECHNICAL_OWNER' }] });
    await mds.graphql(`mutation { setTagColor(urn: "urn:li:tag:pii", colorHex: "#FF0000") }`);
    const history = await get(`/aspects/${enc('urn:li:tag:pii')}?aspect=tagProperties&version=1`);
    expect(history.body.aspect['com.linkedin.tag.TagProperties']).toEqual({ name: 'PII', description: 'Personal data' });
  });

  it('a tag ingested with ingestProposal answers tag(urn) and searchAcrossEntities', async () => {
    const urn = 'urn:li:tag:ingested';
    const proposal = {
      entityType: 'tag',
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName: 'tagProperties',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({ name: 'Ingested', description: 'From a recipe', colorHex: '#00FF00' }),
      },
    };
    expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);
    const { body } = await mds.graphql(TAG, { urn });
    expect(body.data.tag).toEqual({
      urn,
      name: 'ingested',
      description: 'From a recipe',
      properties: { name: 'Ingested', description: 'From a recipe', colorHex: '#00FF00' },
      ownership: null,
      created: { time: expect.any(Number), actor: 'urn:li:corpuser:datahub' },
    });
    const found = await mds.graphql(SEARCH, { query: 'recipe' });
    expect(found.body.data.searchAcrossEntities).toEqual({
      total: 1,
      searchResults: [{ entity: { urn }, matchedFields: [{ name: 'description', value: 'From a recipe' }] }],
    });
  });

  it('a soft-deleted tag (status.removed) still answers tag(urn) but no longer turns up in searches', async () => {
    await mds.graphql(CREATE, { input: { id: 'retired', name: 'Retired' } });
    const status = (removed: boolean) => ({
      entityType: 'tag',
      entityUrn: 'urn:li:tag:retired',
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { contentType: 'application/json', value: JSON.stringify({ removed }) },
    });
    expect((await mds.post('/aspects?action=ingestProposal', { proposal: status(true) })).status).toBe(200);
    expect((await mds.graphql(TAG, { urn: 'urn:li:tag:retired' })).body.data.tag.properties.name).toBe('Retired');
    expect((await mds.graphql(SEARCH, { query: 'retired' })).body.data.searchAcrossEntities.total).toBe(0);
    await mds.post('/aspects?action=ingestProposal', { proposal: status(false) });
    expect((await mds.graphql(SEARCH, { query: 'retired' })).body.data.searchAcrossEntities.total).toBe(1);
  });

  it('deleteTag removes the entity: Rest.li no longer finds it', async () => {
    await mds.graphql(CREATE, { input: { id: 'doomed', name: 'Doomed' } });
    expect((await mds.post('/entities?action=exists', { urn: 'urn:li:tag:doomed' })).body.value).toBe(true);
    expect((await mds.graphql(`mutation { deleteTag(urn: "urn:li:tag:doomed") }`)).body.data.deleteTag).toBe(true);
    expect((await mds.post('/entities?action=exists', { urn: 'urn:li:tag:doomed' })).body.value).toBe(false);
    expect((await mds.graphql(SEARCH, { query: 'doomed' })).body.data.searchAcrossEntities.total).toBe(0);
  });
});

describe('a data directory from an mds that kept tags in mds.db', () => {
  it('serves those tags, with their stamps, after the first start, and on every start after', async () => {
    const dataDir = freshDataDir('legacy-tags');
    const legacy = openDatabase(join(dataDir, 'mds.db'));
    // The tables as @mds/tags migrations 0000-0002 left them.
    legacy.exec(`
      CREATE TABLE tags (id text PRIMARY KEY NOT NULL, doc_id integer NOT NULL UNIQUE, name text NOT NULL, description text,
        color_hex text, created_at integer NOT NULL, created_by text NOT NULL, updated_at integer NOT NULL, updated_by text NOT NULL);
      CREATE VIRTUAL TABLE tags_fts USING fts5(name, description, content='tags', content_rowid='doc_id');
      INSERT INTO tags VALUES ('finance', 1, 'Finance', 'Money matters', '#0F0', 1000, 'urn:li:corpuser:alice', 2000, 'urn:li:corpuser:bob');
    `);
    legacy.close();
    for (let start = 1; start <= 2; start++) {
      const old = await startMds({ DATA_DIR: dataDir });
      try {
        const { body } = await old.graphql(TAG, { urn: 'urn:li:tag:finance' });
        expect(body.data.tag).toEqual({
          urn: 'urn:li:tag:finance',
          name: 'finance',
          description: 'Money matters',
          properties: { name: 'Finance', description: 'Money matters', colorHex: '#0F0' },
          ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:alice' }, type: 'TECHNICAL_OWNER' }] },
          created: { time: 1000, actor: 'urn:li:corpuser:alice' },
        });
        expect((await old.graphql(SEARCH, { query: 'money' })).body.data.searchAcrossEntities.total).toBe(1);
      } finally {
        await old.close();
      }
    }
  });
});
