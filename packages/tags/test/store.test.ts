import { describe, expect, it } from 'vitest';
import { createTagStore, MAX_DESCRIPTION_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH } from '../src/index';
import { openAgain, setup, steppingClock, tempDatabase, thrown } from './fixtures';

const alice = 'urn:li:corpuser:alice';
const bob = 'urn:li:corpuser:bob';
const T0 = 1_700_000_000_000;

const bad = (message: string) => ({ status: 400, kind: 'BAD_REQUEST', message });
const missing = (urn: string) => ({ status: 404, kind: 'NOT_FOUND', message: `Tag ${urn} does not exist` });

describe('create and get', () => {
  it('stores a tag under urn:li:tag:<id>, stamped with its creator and the time', () => {
    const { store } = setup({ now: steppingClock(T0) });
    const created = store.create({ id: 'pii', name: 'PII', description: 'Personal data' }, alice);
    const expected = {
      urn: 'urn:li:tag:pii',
      id: 'pii',
      name: 'PII',
      description: 'Personal data',
      colorHex: null,
      created: { time: T0, actor: alice },
      lastModified: { time: T0, actor: alice },
    };
    expect(created).toEqual(expected);
    expect(store.get('urn:li:tag:pii')).toEqual(expected);
  });

  it('generates a random UUID id when none is given', () => {
    const { store } = setup();
    const a = store.create({ name: 'A' }, alice);
    const b = store.create({ id: null, name: 'B' }, alice);
    expect(a.urn).toMatch(/^urn:li:tag:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.id).not.toBe(a.id);
    expect(store.get(a.urn)?.name).toBe('A');
  });

  it('refuses an id that is taken, leaving the first tag as it was', () => {
    const { store } = setup();
    store.create({ id: 'pii', name: 'First' }, alice);
    expect(thrown(() => store.create({ id: 'pii', name: 'Second' }, bob))).toEqual(bad('This Tag already exists!'));
    expect(store.get('urn:li:tag:pii')).toMatchObject({ name: 'First', created: { actor: alice } });
  });

  it('answers null for a tag that does not exist', () => {
    expect(setup().store.get('urn:li:tag:nope')).toBeNull();
  });

  it('keeps names and descriptions exactly as given', () => {
    const { store } = setup();
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
    odd.forEach((text, i) => store.create({ id: `odd-${i}`, name: text, description: text }, alice));
    odd.forEach((text, i) => expect(store.get(`urn:li:tag:odd-${i}`)).toMatchObject({ name: text, description: text }));
  });

  it('reads back what another connection wrote, after reopening the file', () => {
    const { db, file } = tempDatabase();
    createTagStore(db).create({ id: 'kept', name: 'Kept' }, alice);
    db.close();
    expect(createTagStore(openAgain(file)).get('urn:li:tag:kept')?.name).toBe('Kept'); // migrations are idempotent
  });
});

describe('validation', () => {
  const store = () => setup().store;

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
  ])('refuses the id %j', (id, message) => {
    const s = store();
    expect(thrown(() => s.create({ id, name: 'n' }, alice))).toEqual(bad(message));
    expect(s.search().total).toBe(0);
  });

  it('accepts ids up to 200 characters, counting characters rather than UTF-16 units', () => {
    const s = store();
    for (const id of ['x'.repeat(MAX_ID_LENGTH), '🏷'.repeat(MAX_ID_LENGTH), 'team:data/pii.v2-x_y', 'ünï']) {
      expect(s.create({ id, name: 'n' }, alice).urn).toBe(`urn:li:tag:${id}`);
    }
    expect(thrown(() => s.create({ id: '🏷'.repeat(MAX_ID_LENGTH + 1), name: 'n' }, alice)).status).toBe(400);
  });

  it.each([
    ['', `'name' must not be blank`],
    ['   ', `'name' must not be blank`],
    ['\n\t ', `'name' must not be blank`],
    ['x'.repeat(MAX_NAME_LENGTH + 1), `'name' must be at most ${MAX_NAME_LENGTH} characters long`],
  ])('refuses the name %j', (name, message) => {
    expect(thrown(() => store().create({ id: 't', name }, alice))).toEqual(bad(message));
  });

  it('accepts names of 200 characters and descriptions of 5,000', () => {
    const s = store();
    const name = '名'.repeat(MAX_NAME_LENGTH);
    const description = '😀'.repeat(MAX_DESCRIPTION_LENGTH);
    expect(s.create({ id: 'long', name, description }, alice)).toMatchObject({ name, description });
  });

  it('refuses a description over 5,000 characters, on create, update and setDescription', () => {
    const s = store();
    const tooLong = 'd'.repeat(MAX_DESCRIPTION_LENGTH + 1);
    const message = bad(`'description' must be at most ${MAX_DESCRIPTION_LENGTH} characters long`);
    expect(thrown(() => s.create({ id: 't', name: 'n', description: tooLong }, alice))).toEqual(message);
    s.create({ id: 't', name: 'n' }, alice);
    expect(thrown(() => s.update('urn:li:tag:t', { name: 'n', description: tooLong }, alice))).toEqual(message);
    expect(thrown(() => s.setDescription('urn:li:tag:t', tooLong, alice))).toEqual(message);
  });

  it.each([
    ['pii', `'urn' must be a tag urn of the form urn:li:tag:<id>`],
    ['urn:li:dataset:pii', `'urn' must be a tag urn of the form urn:li:tag:<id>`],
    ['URN:LI:TAG:pii', `'urn' must be a tag urn of the form urn:li:tag:<id>`],
    ['urn:li:tag:', `'urn' must be a tag urn urn:li:tag:<id> whose id must be 1 to 200 characters long`],
    ['urn:li:tag:a b', `'urn' must be a tag urn urn:li:tag:<id> whose id must not contain whitespace, control characters, ',', '(' or ')'`],
    ['urn:li:tag:(a,b)', `'urn' must be a tag urn urn:li:tag:<id> whose id must not contain whitespace, control characters, ',', '(' or ')'`],
  ])('refuses the urn %j everywhere a urn is taken', (urn, message) => {
    const s = store();
    expect(thrown(() => s.get(urn))).toEqual(bad(message));
    expect(thrown(() => s.update(urn, { name: 'n' }, alice))).toEqual(bad(message));
    expect(thrown(() => s.setColor(urn, '#fff', alice))).toEqual(bad(message));
    expect(thrown(() => s.setDescription(urn, 'd', alice))).toEqual(bad(message));
    expect(thrown(() => s.delete(urn))).toEqual(bad(message));
  });
});

describe('update, colour, description and delete', () => {
  function withTag() {
    const fixture = setup({ now: steppingClock(T0) });
    fixture.store.create({ id: 'pii', name: 'PII', description: 'Personal' }, alice); // at T0
    return fixture.store;
  }

  it('renames and redescribes a tag, stamping who and when while keeping its creation stamp', () => {
    const store = withTag();
    const updated = store.update('urn:li:tag:pii', { name: 'Personal data', description: 'GDPR' }, bob);
    expect(updated).toMatchObject({
      name: 'Personal data',
      description: 'GDPR',
      created: { time: T0, actor: alice },
      lastModified: { time: T0 + 1_000, actor: bob },
    });
    expect(store.get('urn:li:tag:pii')).toEqual(updated);
  });

  it('hands out tags no caller can change for the others', () => {
    const { store } = setup();
    store.create({ id: 'shared', name: 'Shared' }, alice);
    const first = store.get('urn:li:tag:shared')!;
    expect(() => Object.assign(first, { name: 'changed' })).toThrow(TypeError);
    expect(() => Object.assign(first.created, { actor: bob })).toThrow(TypeError);
    expect(store.get('urn:li:tag:shared')).toMatchObject({ name: 'Shared', created: { actor: alice } });
  });

  it('answers every read with the latest write, whichever connection made it', () => {
    const fixture = setup({ now: steppingClock(T0) });
    const { store } = fixture;
    const urn = 'urn:li:tag:cached';
    const name = () => store.get(urn)?.name;
    expect(store.get(urn)).toBeNull();
    store.create({ id: 'cached', name: 'v1' }, alice);
    expect(name()).toBe('v1');
    store.update(urn, { name: 'v2' }, bob);
    expect(name()).toBe('v2');
    store.setDescription(urn, 'described', bob);
    expect(store.get(urn)?.description).toBe('described');
    store.setColor(urn, '#00ff00', bob);
    expect(store.get(urn)?.colorHex).toBe('#00ff00');
    // Another process (a second server, the CLI) writing to the same file.
    const other = createTagStore(openAgain(fixture.file));
    other.update(urn, { name: 'v3' }, bob);
    expect(name()).toBe('v3');
    other.delete(urn);
    expect(store.get(urn)).toBeNull();
    other.create({ id: 'cached', name: 'v4' }, alice);
    expect(name()).toBe('v4');
    store.delete(urn);
    expect(store.get(urn)).toBeNull();
  });

  it('keeps the description when an update leaves it out, and removes it when the update says null', () => {
    const store = withTag();
    expect(store.update('urn:li:tag:pii', { name: 'Renamed' }, bob).description).toBe('Personal');
    expect(store.update('urn:li:tag:pii', { name: 'Renamed', description: null }, bob).description).toBeNull();
  });

  it('sets the colour (#RGB or #RRGGBB), kept across later updates', () => {
    const store = withTag();
    expect(store.setColor('urn:li:tag:pii', '#a1B2c3', bob)).toMatchObject({
      colorHex: '#a1B2c3',
      lastModified: { time: T0 + 1_000, actor: bob },
    });
    expect(store.setColor('urn:li:tag:pii', '#FFF', bob).colorHex).toBe('#FFF');
    expect(store.update('urn:li:tag:pii', { name: 'Renamed' }, alice).colorHex).toBe('#FFF');
  });

  it.each(['red', '#abcd', '#ggg', 'abc', '#12345', '#1234567', ' #fff', '#fff ', ''])('refuses the colour %j', (color) => {
    const store = withTag();
    expect(thrown(() => store.setColor('urn:li:tag:pii', color, bob))).toEqual(bad(`'colorHex' must be a color #RGB or #RRGGBB`));
    expect(store.get('urn:li:tag:pii')?.colorHex).toBeNull();
  });

  it('sets the description on its own, empty included', () => {
    const store = withTag();
    expect(store.setDescription('urn:li:tag:pii', 'New words', bob)).toMatchObject({
      name: 'PII',
      description: 'New words',
      lastModified: { time: T0 + 1_000, actor: bob },
    });
    expect(store.setDescription('urn:li:tag:pii', '', bob).description).toBe('');
  });

  it('refuses a blank name on update', () => {
    expect(thrown(() => withTag().update('urn:li:tag:pii', { name: ' ' }, bob))).toEqual(bad(`'name' must not be blank`));
  });

  it('deletes a tag, after which it is gone', () => {
    const store = withTag();
    store.delete('urn:li:tag:pii');
    expect(store.get('urn:li:tag:pii')).toBeNull();
    expect(thrown(() => store.delete('urn:li:tag:pii'))).toEqual(missing('urn:li:tag:pii'));
    expect(store.create({ id: 'pii', name: 'Reborn' }, bob).name).toBe('Reborn'); // the id is free again
  });

  it('answers 404 naming the urn for every change to a tag that does not exist', () => {
    const store = withTag();
    const urn = 'urn:li:tag:ghost';
    expect(thrown(() => store.update(urn, { name: 'n' }, bob))).toEqual(missing(urn));
    expect(thrown(() => store.setColor(urn, '#fff', bob))).toEqual(missing(urn));
    expect(thrown(() => store.setDescription(urn, 'd', bob))).toEqual(missing(urn));
    expect(thrown(() => store.delete(urn))).toEqual(missing(urn));
    expect(store.get(urn)).toBeNull();
  });
});
