import { describe, expect, it } from 'vitest';
import { badRequest, creator, editor, forbidden, notFound, onlyError, reader, setup, steppingClock } from './fixtures';

const T0 = 1_700_000_000_000;

const CREATE = `mutation ($input: CreateTagInput!) { createTag(input: $input) }`;
const TAG = `query ($urn: String!) {
  tag(urn: $urn) {
    urn type name description
    properties { name description colorHex }
    editableProperties { name description }
    ownership { owners { owner { ... on CorpUser { urn username } } type associatedUrn } lastModified { time actor } }
    created { time actor }
    lastModified { time actor }
  }
}`;
const UPDATE = `mutation ($urn: String!, $input: TagUpdateInput!) {
  updateTag(urn: $urn, input: $input) { urn properties { name description colorHex } lastModified { time actor } }
}`;
const DELETE = `mutation ($urn: String!) { deleteTag(urn: $urn) }`;
const COLOR = `mutation ($urn: String!, $colorHex: String!) { setTagColor(urn: $urn, colorHex: $colorHex) }`;
const DESCRIBE = `mutation ($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`;
const SEARCH = `query ($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    start count total
    searchResults { entity { urn type ... on Tag { properties { name description colorHex } } } matchedFields { name value } }
  }
}`;

/** A module whose database already holds urn:li:tag:pii, created by the editor at T0. */
async function withPii() {
  const fixture = await setup({ now: steppingClock(T0) });
  await fixture.run(editor, CREATE, { input: { id: 'pii', name: 'PII', description: 'Personal data' } });
  return fixture;
}

describe('createTag', () => {
  it('answers the new urn, exactly as DataHub does', async () => {
    const { run } = await setup();
    expect(await run(editor, CREATE, { input: { id: 'pii', name: 'PII' } })).toEqual({ data: { createTag: 'urn:li:tag:pii' } });
  });

  it('generates a UUID id when none is given', async () => {
    const { run } = await setup();
    const { data } = await run(editor, `mutation { createTag(input: {name: "No id"}) }`);
    expect(data!.createTag).toMatch(/^urn:li:tag:[0-9a-f-]{36}$/);
  });

  it('is allowed with CREATE_TAGS alone, and refused without CREATE_TAGS or MANAGE_TAGS', async () => {
    const { run, store } = await setup();
    expect((await run(creator, CREATE, { input: { id: 'a', name: 'A' } })).data).toEqual({ createTag: 'urn:li:tag:a' });
    const refused = await run(reader, CREATE, { input: { id: 'b', name: 'B' } });
    expect(onlyError(refused)).toEqual(forbidden);
    expect(refused.data).toEqual({ createTag: null });
    expect(await store.get('urn:li:tag:b')).toBeNull();
  });

  it("refuses an existing id with DataHub's message", async () => {
    const { run } = await withPii();
    const again = await run(editor, CREATE, { input: { id: 'pii', name: 'Other' } });
    expect(onlyError(again)).toEqual(badRequest('This Tag already exists!'));
  });

  it('refuses invalid input with a 400 naming the field and the rule', async () => {
    const { run } = await setup();
    expect(onlyError(await run(editor, CREATE, { input: { id: 'a b', name: 'n' } }))).toEqual(
      badRequest(`'id' must not contain whitespace, control characters, ',', '(' or ')'`),
    );
    expect(onlyError(await run(editor, CREATE, { input: { id: 'ok', name: '  ' } }))).toEqual(badRequest(`'name' must not be blank`));
    expect(onlyError(await run(editor, CREATE, { input: { id: 'ok', name: 'n', description: 'd'.repeat(5_001) } }))).toEqual(
      badRequest(`'description' must be at most 5000 characters long`),
    );
  });

  it('lets exactly one of 100 concurrent creates of one id succeed', async () => {
    const { run } = await setup();
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => run(editor, CREATE, { input: { id: 'race', name: `Racer ${i}` } })),
    );
    expect(results.filter((r) => r.data?.createTag === 'urn:li:tag:race')).toHaveLength(1);
    const refusals = results.filter((r) => r.errors);
    expect(refusals).toHaveLength(99);
    expect(refusals.every((r) => onlyError(r).message === 'This Tag already exists!')).toBe(true);
  });
});

describe('mutations that share a commit', () => {
  it('refuse alone: the rest of the batch commits, and no write runs twice', async () => {
    let clockReads = 0;
    const { run, store } = await setup({ now: () => (clockReads++, T0) });
    await store.create({ id: 'taken', name: 'Taken' }, editor.actor);
    clockReads = 0;
    // One turn: one batch. Each write that gets past its argument checks reads the clock once; had a refusal rolled
    // the batch back and run it again, the writes before it would read it twice.
    const results = await Promise.all([
      run(editor, CREATE, { input: { id: 'first', name: 'First' } }),
      run(editor, CREATE, { input: { id: 'taken', name: 'Again' } }),
      run(editor, CREATE, { input: { id: 'a b', name: 'Bad id' } }),
      run(editor, UPDATE, { urn: 'urn:li:tag:ghost', input: { urn: 'urn:li:tag:ghost', name: 'Ghost' } }),
      run(editor, CREATE, { input: { id: 'last', name: 'Last' } }),
    ]);
    expect(results.map((r) => r.data?.createTag ?? onlyError(r).message)).toEqual([
      'urn:li:tag:first',
      'This Tag already exists!',
      `'id' must not contain whitespace, control characters, ',', '(' or ')'`,
      'Tag urn:li:tag:ghost does not exist',
      'urn:li:tag:last',
    ]);
    expect(clockReads).toBe(4);
    expect((await store.search({ query: '*' })).hits.map((hit) => [hit.tag.id, hit.tag.name])).toEqual([
      ['first', 'First'],
      ['last', 'Last'],
      ['taken', 'Taken'],
    ]);
    expect((await store.search({ query: 'last' })).hits.map((hit) => hit.tag.id)).toEqual(['last']);
  });
});

describe('tag', () => {
  it("answers DataHub's Tag shape with the creator as technical owner and the mds audit stamps", async () => {
    const { run } = await withPii();
    expect(await run(reader, TAG, { urn: 'urn:li:tag:pii' })).toEqual({
      data: {
        tag: {
          urn: 'urn:li:tag:pii',
          type: 'TAG',
          name: 'pii',
          description: 'Personal data',
          properties: { name: 'PII', description: 'Personal data', colorHex: null },
          // DataHub's TagMapper never fills editableProperties.
          editableProperties: null,
          ownership: {
            owners: [
              { owner: { urn: 'urn:li:corpuser:editor', username: 'editor' }, type: 'TECHNICAL_OWNER', associatedUrn: 'urn:li:tag:pii' },
            ],
            lastModified: { time: T0, actor: 'urn:li:corpuser:editor' },
          },
          created: { time: T0, actor: 'urn:li:corpuser:editor' },
          lastModified: { time: T0, actor: 'urn:li:corpuser:editor' },
        },
      },
    });
  });

  it('answers null, without an error, for an unknown tag', async () => {
    const { run } = await setup();
    expect(await run(reader, TAG, { urn: 'urn:li:tag:unknown' })).toEqual({ data: { tag: null } });
  });

  it('refuses a urn that is not a tag urn', async () => {
    const { run } = await setup();
    expect(onlyError(await run(reader, TAG, { urn: 'urn:li:dataset:x' }))).toEqual(
      badRequest(`'urn' must be a tag urn of the form urn:li:tag:<id>`),
    );
  });
});

describe('updateTag', () => {
  it('renames and redescribes, answering the updated tag', async () => {
    const { run } = await withPii();
    const input = { urn: 'urn:li:tag:pii', name: 'Personal', description: 'GDPR scope' };
    expect(await run(editor, UPDATE, { urn: 'urn:li:tag:pii', input })).toEqual({
      data: {
        updateTag: {
          urn: 'urn:li:tag:pii',
          properties: { name: 'Personal', description: 'GDPR scope', colorHex: null },
          lastModified: { time: T0 + 1_000, actor: 'urn:li:corpuser:editor' },
        },
      },
    });
  });

  it('replaces the owners with the ownership given, with the name, all or none (TagUpdateInput.ownership)', async () => {
    const { run } = await withPii();
    const ownership = {
      owners: [
        { owner: 'urn:li:corpuser:ana', type: 'BUSINESS_OWNER' },
        { owner: 'urn:li:corpGroup:data', type: 'TECHNICAL_OWNER' },
      ],
    };
    const input = { urn: 'urn:li:tag:pii', name: 'Personal', ownership };
    expect((await run(editor, UPDATE, { urn: 'urn:li:tag:pii', input })).errors).toBeUndefined();
    const { data } = await run(editor, TAG, { urn: 'urn:li:tag:pii' });
    const tag = data!.tag as { properties: unknown; ownership: { owners: unknown[]; lastModified: unknown } };
    expect(tag.properties).toEqual({ name: 'Personal', description: 'Personal data', colorHex: null });
    expect(tag.ownership.owners).toEqual([
      { owner: { urn: 'urn:li:corpuser:ana', username: 'ana' }, type: 'BUSINESS_OWNER', associatedUrn: 'urn:li:tag:pii' },
      { owner: {}, type: 'TECHNICAL_OWNER', associatedUrn: 'urn:li:tag:pii' },
    ]);
    expect(tag.ownership.lastModified).toEqual({ time: T0 + 1_000, actor: 'urn:li:corpuser:editor' });
    // Without ownership the owners stay; an owner that is no urn writes nothing, the name included.
    await run(editor, UPDATE, { urn: 'urn:li:tag:pii', input: { urn: 'urn:li:tag:pii', name: 'Renamed' } });
    const bad = { urn: 'urn:li:tag:pii', name: 'Broken', ownership: { owners: [{ owner: 'ana', type: 'NONE' }] } };
    expect(onlyError(await run(editor, UPDATE, { urn: 'urn:li:tag:pii', input: bad }))).toMatchObject({ extensions: { code: 422 } });
    const after = (await run(editor, TAG, { urn: 'urn:li:tag:pii' })).data!.tag as typeof tag;
    expect(after.properties).toMatchObject({ name: 'Renamed' });
    expect(after.ownership.owners).toHaveLength(2);
  });

  it('refuses an input urn that differs from the urn argument', async () => {
    const { run, store } = await withPii();
    const result = await run(editor, UPDATE, { urn: 'urn:li:tag:pii', input: { urn: 'urn:li:tag:other', name: 'X' } });
    expect(onlyError(result)).toEqual(badRequest(`'input.urn' must equal the 'urn' argument`));
    expect((await store.get('urn:li:tag:pii'))?.name).toBe('PII');
  });

  it('answers 404 for an unknown tag', async () => {
    const { run } = await setup();
    const result = await run(editor, UPDATE, { urn: 'urn:li:tag:ghost', input: { urn: 'urn:li:tag:ghost', name: 'X' } });
    expect(onlyError(result)).toEqual(notFound('Tag urn:li:tag:ghost does not exist'));
  });

  it('needs MANAGE_TAGS: CREATE_TAGS is not enough', async () => {
    const { run, store } = await withPii();
    for (const context of [reader, creator]) {
      const result = await run(context, UPDATE, { urn: 'urn:li:tag:pii', input: { urn: 'urn:li:tag:pii', name: 'X' } });
      expect(onlyError(result)).toEqual(forbidden);
    }
    expect((await store.get('urn:li:tag:pii'))?.name).toBe('PII');
  });
});

describe('deleteTag', () => {
  it('deletes, then answers 404 for the same urn', async () => {
    const { run } = await withPii();
    expect(await run(editor, DELETE, { urn: 'urn:li:tag:pii' })).toEqual({ data: { deleteTag: true } });
    expect(await run(editor, TAG, { urn: 'urn:li:tag:pii' })).toEqual({ data: { tag: null } });
    expect(onlyError(await run(editor, DELETE, { urn: 'urn:li:tag:pii' }))).toEqual(notFound('Tag urn:li:tag:pii does not exist'));
  });

  it('needs MANAGE_TAGS', async () => {
    const { run, store } = await withPii();
    expect(onlyError(await run(creator, DELETE, { urn: 'urn:li:tag:pii' }))).toEqual(forbidden);
    expect(await store.get('urn:li:tag:pii')).not.toBeNull();
  });
});

describe('setTagColor', () => {
  it('sets the colour', async () => {
    const { run, store } = await withPii();
    expect(await run(editor, COLOR, { urn: 'urn:li:tag:pii', colorHex: '#FF0000' })).toEqual({ data: { setTagColor: true } });
    expect((await store.get('urn:li:tag:pii'))?.colorHex).toBe('#FF0000');
  });

  it('refuses what is not #RGB or #RRGGBB, an unknown tag, and callers without MANAGE_TAGS', async () => {
    const { run } = await withPii();
    expect(onlyError(await run(editor, COLOR, { urn: 'urn:li:tag:pii', colorHex: 'red' }))).toEqual(
      badRequest(`'colorHex' must be a color #RGB or #RRGGBB`),
    );
    expect(onlyError(await run(editor, COLOR, { urn: 'urn:li:tag:ghost', colorHex: '#fff' }))).toEqual(
      notFound('Tag urn:li:tag:ghost does not exist'),
    );
    expect(onlyError(await run(reader, COLOR, { urn: 'urn:li:tag:pii', colorHex: '#fff' }))).toEqual(forbidden);
  });
});

describe('updateDescription', () => {
  it("sets a tag's description", async () => {
    const { run, store } = await withPii();
    expect(await run(editor, DESCRIBE, { input: { resourceUrn: 'urn:li:tag:pii', description: 'Now this' } })).toEqual({
      data: { updateDescription: true },
    });
    expect(await store.get('urn:li:tag:pii')).toMatchObject({ description: 'Now this', lastModified: { time: T0 + 1_000 } });
  });

  it('refuses sub-resources, unknown tags and callers without MANAGE_TAGS; leaves other types to their privileges', async () => {
    const { run } = await withPii();
    const describe = (input: Record<string, unknown>, context = editor) =>
      run(context, DESCRIBE, { input: { description: 'd', resourceUrn: 'urn:li:tag:pii', ...input } });
    // Another type's resource is the entities' to describe: it needs EDIT_ENTITY or EDIT_ENTITY_DOCS.
    expect(onlyError(await describe({ resourceUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)' }))).toEqual(forbidden);
    expect(onlyError(await describe({ subResourceType: 'DATASET_FIELD', subResource: 'col' }))).toEqual(
      badRequest(`'subResourceType' and 'subResource' must be absent: tags have no sub-resources`),
    );
    expect(onlyError(await describe({ resourceUrn: 'urn:li:tag:ghost' }))).toEqual(notFound('Tag urn:li:tag:ghost does not exist'));
    expect(onlyError(await describe({}, creator))).toEqual(forbidden);
  });
});

describe('searchAcrossEntities', () => {
  async function catalogue() {
    const fixture = await setup();
    const tags = [
      { id: 'pii', name: 'PII', description: 'Personally identifiable' },
      { id: 'finance', name: 'Finance', description: 'Money matters' },
      { id: 'gdpr', name: 'GDPR', description: 'Covers PII of EU residents' },
    ];
    for (const input of tags) await fixture.run(editor, CREATE, { input });
    await fixture.run(editor, COLOR, { urn: 'urn:li:tag:finance', colorHex: '#0a0' });
    return fixture;
  }

  it("lists tags the way DataHub's UI asks for them, to any reader", async () => {
    const { run } = await catalogue();
    const result = await run(reader, SEARCH, { input: { types: ['TAG'], query: '*', start: 0, count: 2 } });
    expect(result).toEqual({
      data: {
        searchAcrossEntities: {
          start: 0,
          count: 2,
          total: 3,
          searchResults: [
            {
              entity: {
                urn: 'urn:li:tag:finance',
                type: 'TAG',
                properties: { name: 'Finance', description: 'Money matters', colorHex: '#0a0' },
              },
              matchedFields: [],
            },
            {
              entity: {
                urn: 'urn:li:tag:gdpr',
                type: 'TAG',
                properties: { name: 'GDPR', description: 'Covers PII of EU residents', colorHex: null },
              },
              matchedFields: [],
            },
          ],
        },
      },
    });
  });

  it('finds tags by words of name and description, saying which matched', async () => {
    const { run } = await catalogue();
    const { data } = await run(reader, SEARCH, { input: { query: 'pii' } });
    expect(data!.searchAcrossEntities.total).toBe(2);
    expect(data!.searchAcrossEntities.searchResults.map((r: any) => [r.entity.urn, r.matchedFields])).toEqual([
      ['urn:li:tag:pii', [{ name: 'name', value: 'PII' }]],
      ['urn:li:tag:gdpr', [{ name: 'description', value: 'Covers PII of EU residents' }]],
    ]);
  });

  it('searches every type with a face when types is absent or empty (the tags and the seeded root user), and finds nothing for other types', async () => {
    const { run } = await catalogue();
    const total = async (input: Record<string, unknown>) =>
      (await run(reader, SEARCH, { input: { query: '*', ...input } })).data!.searchAcrossEntities.total;
    expect(await total({})).toBe(4);
    expect(await total({ types: [] })).toBe(4);
    expect(await total({ types: ['TAG'] })).toBe(3);
    expect(await total({ types: ['CORP_USER', 'TAG'] })).toBe(4);
    expect(await run(reader, SEARCH, { input: { query: '*', types: ['GLOSSARY_TERM'], start: 5 } })).toEqual({
      data: { searchAcrossEntities: { start: 5, count: 0, total: 0, searchResults: [] } },
    });
  });

  it('refuses bad paging and unknown filter fields with a 400; DESCENDANTS_INCL off a hierarchy compares as EQUAL', async () => {
    const { run } = await catalogue();
    const refused = async (input: Record<string, unknown>) => onlyError(await run(reader, SEARCH, { input: { query: '*', ...input } }));
    expect(await refused({ count: 1_001 })).toEqual(badRequest(`'count' must be an integer from 0 to 1000`));
    expect(await refused({ count: 1_001, types: ['CORP_USER'] })).toEqual(badRequest(`'count' must be an integer from 0 to 1000`));
    expect(await refused({ start: -1 })).toEqual(badRequest(`'start' must be an integer of at least 0`));
    expect((await refused({ filters: [{ field: 'colour', values: ['x'] }] })).message).toMatch(/^Unknown filter field colour; known: /);
    // DataHub expands DESCENDANTS_INCL on domains and containers only; on `name` it is EQUAL: no tag is named "x".
    const inclusive = await run(reader, SEARCH, {
      input: { query: '*', types: ['TAG'], orFilters: [{ and: [{ field: 'name', values: ['x'], condition: 'DESCENDANTS_INCL' }] }] },
    });
    expect([inclusive.errors, inclusive.data!.searchAcrossEntities.total]).toEqual([undefined, 0]);
    const empty = await run(reader, SEARCH, { input: { query: '*', types: ['TAG'], filters: [], orFilters: [{ and: [] }] } });
    expect(empty.data!.searchAcrossEntities.total).toBe(3);
  });

  it('does not error on FTS5 syntax in the query', async () => {
    const { run } = await catalogue();
    for (const query of ['"', 'NEAR(', '-', ':', '*pii*', 'pii" OR "x']) {
      const result = await run(reader, SEARCH, { input: { query } });
      expect(result.errors, query).toBeUndefined();
    }
  });
});
