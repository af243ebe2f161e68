import { describe, expect, it } from 'vitest';
import { MAX_DESCRIPTION_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH } from '../src/index';
import { ingested, openStore, setup, steppingClock, tagEditor, thrown } from './fixtures';

const alice = 'urn:li:corpuser:alice';
const bob = 'urn:li:corpuser:bob';
const T0 = 1_700_000_000_000;

const bad = (message: string) => ({ status: 400, kind: 'BAD_REQUEST', message });
const missing = (urn: string) => ({ status: 404, kind: 'NOT_FOUND', message: `Tag ${urn} does not exist` });

describe('create and get', () => {
  it('stores a tag under urn:li:tag:<id>, owned and stamped by its creator, as DataHub aspects', async () => {
    const { store, entities } = await setup({ now: steppingClock(T0) });
    const created = await store.create({ id: 'pii', name: 'PII', description: 'Personal data' }, tagEditor(alice));
    const expected = {
      urn: 'urn:li:tag:pii',
      id: 'pii',
      name: 'PII',
      description: 'Personal data',
      colorHex: null,
      ownership: { owners: [{ owner: alice, type: 'TECHNICAL_OWNER' }], lastModified: { time: T0, actor: alice } },
      created: { time: T0, actor: alice },
      lastModified: { time: T0, actor: alice },
    };
    expect(created).toEqual(expected);
    expect(await store.get('urn:li:tag:pii')).toEqual(expected);
    const aspects = (await entities.store.latest(['urn:li:tag:pii'])).get('urn:li:tag:pii')!;
    expect(Object.fromEntries([...aspects].map(([name, aspect]) => [name, aspect.value]))).toEqual({
      tagKey: { name: 'pii' },
      tagProperties: { name: 'PII', description: 'Personal data' },
      ownership: { owners: [{ owner: alice, type: 'TECHNICAL_OWNER' }], lastModified: { time: T0, actor: alice } },
    });
  });

  it('reads a tag ingested as aspects (key only, then properties) as it reads one it created', async () => {
    const { store, entities } = await setup();
    const urn = 'urn:li:tag:ingested';
    await ingested(entities, [{ urn, aspect: 'tagKey', changeType: 'UPSERT', value: { name: 'ingested' } }], { actor: bob, time: T0 });
    expect(await store.get(urn)).toEqual({
      urn,
      id: 'ingested',
      name: 'ingested',
      description: null,
      colorHex: null,
      ownership: null,
      created: { time: T0, actor: bob },
      lastModified: { time: T0, actor: bob },
    });
    const properties = { name: 'Ingested', description: 'From a recipe', colorHex: '#123456', extra: 'kept' };
    await ingested(entities, [{ urn, aspect: 'tagProperties', changeType: 'UPSERT', value: properties }], { actor: bob, time: T0 + 5 });
    expect(await store.get(urn)).toMatchObject({
      name: 'Ingested',
      description: 'From a recipe',
      colorHex: '#123456',
      lastModified: { time: T0 + 5 },
    });
    expect((await store.search({ query: 'recipe' })).hits.map((hit) => hit.tag.urn)).toEqual([urn]);
    // A change through the store keeps what it does not know about.
    await store.setColor(urn, '#fff', tagEditor(alice));
    expect((await entities.store.get(urn, 'tagProperties'))?.value).toEqual({ ...properties, colorHex: '#fff' });
  });

  it('generates a random UUID id when none is given', async () => {
    const { store } = await setup();
    const a = await store.create({ name: 'A' }, tagEditor(alice));
    const b = await store.create({ id: null, name: 'B' }, tagEditor(alice));
    expect(a.urn).toMatch(/^urn:li:tag:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.id).not.toBe(a.id);
    expect((await store.get(a.urn))?.name).toBe('A');
  });

  it('refuses an id that is taken, leaving the first tag as it was', async () => {
    const { store } = await setup();
    await store.create({ id: 'pii', name: 'First' }, tagEditor(alice));
    expect(await thrown(() => store.create({ id: 'pii', name: 'Second' }, tagEditor(bob)))).toEqual(bad('This Tag already exists!'));
    expect(await store.get('urn:li:tag:pii')).toMatchObject({ name: 'First', created: { actor: alice } });
  });

  it('answers null for a tag that does not exist', async () => {
    expect(await (await setup()).store.get('urn:li:tag:nope')).toBeNull();
  });

  it('keeps names and descriptions exactly as given', async () => {
    const { store } = await setup();
    const odd = [
      `It's "quoted" \\ back\\slashed`,
      `'); DROP TABLE tags; --`,
      `1 OR 1=1; SELECT * FROM sqlite_master`,
      'Ünïcödé ñ 日本語 한국어 العربية',
      '🏷️ emoji 👩🏽‍💻 flags 🇫🇷',
      '  padded with spaces  ',
      'line\nbreak\ttab',
      'nul\u0000inside',
      '%_ LIKE wildcards *?[]',
    ];
    for (const [i, text] of odd.entries()) await store.create({ id: `odd-${i}`, name: text, description: text }, tagEditor(alice));
    for (const [i, text] of odd.entries()) expect(await store.get(`urn:li:tag:odd-${i}`)).toMatchObject({ name: text, description: text });
  });

  it('reads back what another connection wrote, after reopening the file', async () => {
    const { file, store } = await setup();
    await store.create({ id: 'kept', name: 'Kept' }, tagEditor(alice));
    expect((await (await openStore(file)).get('urn:li:tag:kept'))?.name).toBe('Kept'); // migrations are idempotent
  });
});

describe('validation', () => {
  const store = async () => (await setup()).store;

  it.each([
    ['', `'id' must be 1 to ${MAX_ID_LENGTH} characters long`],
    ['x'.repeat(MAX_ID_LENGTH + 1), `'id' must be 1 to ${MAX_ID_LENGTH} characters long`],
    ['a b', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a\tb', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a\u00a0b', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a\u0001b', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a\u007fb', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a,b', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a(b', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
    ['a)b', `'id' must not contain whitespace, control characters, ',', '(' or ')'`],
  ])('refuses the id %j', async (id, message) => {
    const s = await store();
    expect(await thrown(() => s.create({ id, name: 'n' }, tagEditor(alice)))).toEqual(bad(message));
    expect((await s.search()).total).toBe(0);
  });

  it('accepts ids up to 200 characters, counting characters rather than UTF-16 units, whose urn DataHub accepts', async () => {
    const s = await store();
    for (const id of ['x'.repeat(MAX_ID_LENGTH), '🏷'.repeat(40), 'team:data/pii.v2-x_y', 'ünï']) {
      expect((await s.create({ id, name: 'n' }, tagEditor(alice))).urn).toBe(`urn:li:tag:${id}`);
    }
    expect((await thrown(() => s.create({ id: 'x'.repeat(MAX_ID_LENGTH + 1), name: 'n' }, tagEditor(alice)))).status).toBe(400);
    // 200 emoji are 200 characters, but 2,400 bytes once URL-encoded: over DataHub's 512 for any urn.
    expect(await thrown(() => s.create({ id: '🏷'.repeat(MAX_ID_LENGTH), name: 'n' }, tagEditor(alice)))).toEqual(
      bad(`'id' must form a urn DataHub accepts (cannot provide an URN longer than 512 bytes (when URL encoded))`),
    );
  });

  it.each([
    ['', `'name' must not be blank`],
    ['   ', `'name' must not be blank`],
    ['\n\t ', `'name' must not be blank`],
    ['x'.repeat(MAX_NAME_LENGTH + 1), `'name' must be at most ${MAX_NAME_LENGTH} characters long`],
  ])('refuses the name %j', async (name, message) => {
    const s = await store();
    expect(await thrown(() => s.create({ id: 't', name }, tagEditor(alice)))).toEqual(bad(message));
  });

  it('accepts names of 200 characters and descriptions of 5,000', async () => {
    const s = await store();
    const name = '名'.repeat(MAX_NAME_LENGTH);
    const description = '😀'.repeat(MAX_DESCRIPTION_LENGTH);
    expect(await s.create({ id: 'long', name, description }, tagEditor(alice))).toMatchObject({ name, description });
  });

  it('refuses a description over 5,000 characters, on create, update and setDescription', async () => {
    const s = await store();
    const tooLong = 'd'.repeat(MAX_DESCRIPTION_LENGTH + 1);
    const message = bad(`'description' must be at most ${MAX_DESCRIPTION_LENGTH} characters long`);
    expect(await thrown(() => s.create({ id: 't', name: 'n', description: tooLong }, tagEditor(alice)))).toEqual(message);
    await s.create({ id: 't', name: 'n' }, tagEditor(alice));
    expect(await thrown(() => s.update('urn:li:tag:t', { name: 'n', description: tooLong }, tagEditor(alice)))).toEqual(message);
    expect(await thrown(() => s.setDescription('urn:li:tag:t', tooLong, tagEditor(alice)))).toEqual(message);
  });

  it.each([
    ['pii', `'urn' must be a tag urn of the form urn:li:tag:<id>`],
    ['urn:li:dataset:pii', `'urn' must be a tag urn of the form urn:li:tag:<id>`],
    ['URN:LI:TAG:pii', `'urn' must be a tag urn of the form urn:li:tag:<id>`],
    [
      'urn:li:tag:',
      `'urn' must be a tag urn urn:li:tag:<id>: Invalid urn: urn:li:tag:\n Cause: URN must start with 'urn:li:<entityType>:' and have a key`,
    ],
    ['urn:li:tag:a\nb', `'urn' must be a tag urn urn:li:tag:<id>: Invalid urn: urn:li:tag:a\nb\n Cause: the URN holds a control character`],
    [
      'urn:li:tag:(a,b)',
      `'urn' must be a tag urn urn:li:tag:<id>: Failed to convert urn to entity key: urns parts and key fields do not have same length`,
    ],
  ])('refuses the urn %j everywhere a urn is taken', async (urn, message) => {
    const s = await store();
    expect(await thrown(() => s.get(urn))).toEqual(bad(message));
    expect(await thrown(() => s.update(urn, { name: 'n' }, tagEditor(alice)))).toEqual(bad(message));
    expect(await thrown(() => s.setColor(urn, '#fff', tagEditor(alice)))).toEqual(bad(message));
    expect(await thrown(() => s.setDescription(urn, 'd', tagEditor(alice)))).toEqual(bad(message));
    expect(await thrown(() => s.delete(urn, tagEditor(alice)))).toEqual(bad(message));
  });
});

describe('update, colour, description and delete', () => {
  async function withTag() {
    const fixture = await setup({ now: steppingClock(T0) });
    await fixture.store.create({ id: 'pii', name: 'PII', description: 'Personal' }, tagEditor(alice)); // at T0
    return fixture.store;
  }

  it('renames and redescribes a tag, stamping who and when while keeping its creation stamp', async () => {
    const store = await withTag();
    const updated = await store.update('urn:li:tag:pii', { name: 'Personal data', description: 'GDPR' }, tagEditor(bob));
    expect(updated).toMatchObject({
      name: 'Personal data',
      description: 'GDPR',
      created: { time: T0, actor: alice },
      lastModified: { time: T0 + 1_000, actor: bob },
    });
    expect(await store.get('urn:li:tag:pii')).toEqual(updated);
  });

  it('hands out copies: changing a tag that was read changes nothing stored', async () => {
    const { store } = await setup();
    await store.create({ id: 'shared', name: 'Shared' }, tagEditor(alice));
    const first = (await store.get('urn:li:tag:shared'))!;
    Object.assign(first, { name: 'changed' });
    Object.assign(first.created, { actor: bob });
    first.ownership!.owners.push({ owner: bob });
    expect(await store.get('urn:li:tag:shared')).toMatchObject({
      name: 'Shared',
      created: { actor: alice },
      ownership: { owners: [{ owner: alice }] },
    });
  });

  it('answers every read with the latest write, whichever connection made it', async () => {
    const fixture = await setup({ now: steppingClock(T0) });
    const { store } = fixture;
    const urn = 'urn:li:tag:cached';
    const name = async () => (await store.get(urn))?.name;
    expect(await store.get(urn)).toBeNull();
    await store.create({ id: 'cached', name: 'v1' }, tagEditor(alice));
    expect(await name()).toBe('v1');
    await store.update(urn, { name: 'v2' }, tagEditor(bob));
    expect(await name()).toBe('v2');
    await store.setDescription(urn, 'described', tagEditor(bob));
    expect((await store.get(urn))?.description).toBe('described');
    await store.setColor(urn, '#00ff00', tagEditor(bob));
    expect((await store.get(urn))?.colorHex).toBe('#00ff00');
    // Another process (a second server, the CLI) writing to the same file.
    const other = await openStore(fixture.file);
    await other.update(urn, { name: 'v3' }, tagEditor(bob));
    expect(await name()).toBe('v3');
    await other.delete(urn, tagEditor(alice));
    expect(await store.get(urn)).toBeNull();
    await other.create({ id: 'cached', name: 'v4' }, tagEditor(alice));
    expect(await name()).toBe('v4');
    await store.delete(urn, tagEditor(alice));
    expect(await store.get(urn)).toBeNull();
  });

  it('keeps the description when an update leaves it out, and removes it when the update says null', async () => {
    const store = await withTag();
    expect((await store.update('urn:li:tag:pii', { name: 'Renamed' }, tagEditor(bob))).description).toBe('Personal');
    expect((await store.update('urn:li:tag:pii', { name: 'Renamed', description: null }, tagEditor(bob))).description).toBeNull();
  });

  it('sets the colour (#RGB or #RRGGBB), kept across later updates', async () => {
    const store = await withTag();
    expect(await store.setColor('urn:li:tag:pii', '#a1B2c3', tagEditor(bob))).toMatchObject({
      colorHex: '#a1B2c3',
      lastModified: { time: T0 + 1_000, actor: bob },
    });
    expect((await store.setColor('urn:li:tag:pii', '#FFF', tagEditor(bob))).colorHex).toBe('#FFF');
    expect((await store.update('urn:li:tag:pii', { name: 'Renamed' }, tagEditor(alice))).colorHex).toBe('#FFF');
  });

  it.each(['red', '#abcd', '#ggg', 'abc', '#12345', '#1234567', ' #fff', '#fff ', ''])('refuses the colour %j', async (color) => {
    const store = await withTag();
    expect(await thrown(() => store.setColor('urn:li:tag:pii', color, tagEditor(bob)))).toEqual(
      bad(`'colorHex' must be a color #RGB or #RRGGBB`),
    );
    expect((await store.get('urn:li:tag:pii'))?.colorHex).toBeNull();
  });

  it('sets the description on its own, empty included', async () => {
    const store = await withTag();
    expect(await store.setDescription('urn:li:tag:pii', 'New words', tagEditor(bob))).toMatchObject({
      name: 'PII',
      description: 'New words',
      lastModified: { time: T0 + 1_000, actor: bob },
    });
    expect((await store.setDescription('urn:li:tag:pii', '', tagEditor(bob))).description).toBe('');
  });

  it('refuses a blank name on update', async () => {
    const store = await withTag();
    expect(await thrown(() => store.update('urn:li:tag:pii', { name: ' ' }, tagEditor(bob)))).toEqual(bad(`'name' must not be blank`));
  });

  it('deletes a tag, after which it is gone', async () => {
    const store = await withTag();
    await store.delete('urn:li:tag:pii', tagEditor(alice));
    expect(await store.get('urn:li:tag:pii')).toBeNull();
    expect(await thrown(() => store.delete('urn:li:tag:pii', tagEditor(alice)))).toEqual(missing('urn:li:tag:pii'));
    expect((await store.create({ id: 'pii', name: 'Reborn' }, tagEditor(bob))).name).toBe('Reborn'); // the id is free again
  });

  it('answers 404 naming the urn for every change to a tag that does not exist', async () => {
    const store = await withTag();
    const urn = 'urn:li:tag:ghost';
    expect(await thrown(() => store.update(urn, { name: 'n' }, tagEditor(bob)))).toEqual(missing(urn));
    expect(await thrown(() => store.setColor(urn, '#fff', tagEditor(bob)))).toEqual(missing(urn));
    expect(await thrown(() => store.setDescription(urn, 'd', tagEditor(bob)))).toEqual(missing(urn));
    expect(await thrown(() => store.delete(urn, tagEditor(alice)))).toEqual(missing(urn));
    expect(await store.get(urn)).toBeNull();
  });
});
