import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE } from '@mds/core';
import { MAX_QUERY_LENGTH, type TagService } from '../src/index';
import { setup, tagEditor, thrown } from './fixtures';

const alice = tagEditor('urn:li:corpuser:alice');

type Seed = [id: string, name: string, description?: string | null][];

/** A store holding `tags`, and its aspect store. */
async function seed(tags: Seed) {
  const { entities, store } = await setup();
  for (const [id, name, description] of tags) await store.create({ id, name, description }, alice);
  return { entities, store };
}

const seeded = async (tags: Seed): Promise<TagService> => (await seed(tags)).store;

const ids = async (store: TagService, query: string, count = 100) => (await store.search({ query, count })).hits.map((hit) => hit.tag.id);

const CATALOGUE: Seed = [
  ['pii', 'PII', 'Personally identifiable information'],
  ['finance', 'Finance', 'Money, budgets and invoices'],
  ['cafe', 'Café menu', 'Things served at the café'],
  ['gdpr', 'GDPR', 'Data under the General Data Protection Regulation, includes PII'],
  ['android', 'Android apps', null],
];
const catalogue = async () => await seeded(CATALOGUE);

describe('listing everything', () => {
  it('lists all tags for "*", blank or absent queries, by name regardless of case, then id', async () => {
    const store = await seeded([
      ['b2', 'beta'],
      ['a1', 'Alpha'],
      ['b1', 'Beta'],
      ['z', 'zeta'],
      ['c', 'Gamma'],
    ]);
    for (const query of ['*', '', '   ', ' * ', undefined, null]) {
      const page = await store.search({ query });
      expect(page.hits.map((hit) => hit.tag.id)).toEqual(['a1', 'b1', 'b2', 'c', 'z']);
      expect(page).toMatchObject({ start: 0, count: 5, total: 5 });
      expect(page.hits.every((hit) => hit.matchedFields.length === 0)).toBe(true);
    }
  });

  it('pages 25 tags by 10 with exact totals, no overlap and the same pages every time', async () => {
    const store = await seeded(Array.from({ length: 25 }, (_, i) => [`t${i}`, `Same name`] as [string, string]));
    const pages = await Promise.all([0, 10, 20].map((start) => store.search({ query: '*', start, count: 10 })));
    expect(pages.map((p) => [p.start, p.count, p.total])).toEqual([
      [0, 10, 25],
      [10, 10, 25],
      [20, 5, 25],
    ]);
    const seen = pages.flatMap((p) => p.hits.map((hit) => hit.tag.id));
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual([...seen].sort()); // equal names: id order
    expect(await Promise.all([0, 10, 20].map((start) => store.search({ query: '*', start, count: 10 })))).toEqual(pages);
  });

  it('answers the total with no hits for count 0 and past the end', async () => {
    const store = await catalogue();
    expect(await store.search({ query: '*', count: 0 })).toEqual({ start: 0, count: 0, total: 5, hits: [] });
    expect(await store.search({ query: '*', start: 50, count: 10 })).toEqual({ start: 50, count: 0, total: 5, hits: [] });
    expect(await store.search({ query: 'pii', count: 0 })).toEqual({ start: 0, count: 0, total: 2, hits: [] });
  });

  it('defaults to the first 10', async () => {
    const store = await seeded(Array.from({ length: 12 }, (_, i) => [`t${String(i).padStart(2, '0')}`, 'n'] as [string, string]));
    expect(await store.search()).toMatchObject({ start: 0, count: 10, total: 12 });
  });
});

describe('text queries', () => {
  it('matches words of the name or the description by prefix, ignoring case and accents', async () => {
    const store = await catalogue();
    expect(await ids(store, 'fin')).toEqual(['finance']);
    expect(await ids(store, 'FINANCE')).toEqual(['finance']);
    expect(await ids(store, 'budg')).toEqual(['finance']);
    expect(await ids(store, 'person')).toEqual(['pii']);
    expect(await ids(store, 'cafe')).toEqual(['cafe']);
    expect(await ids(store, 'CAFÉ')).toEqual(['cafe']);
    expect(await ids(store, 'nance')).toEqual([]); // prefixes, not infixes
  });

  it('needs every word to match, in either field', async () => {
    const store = await catalogue();
    expect(await ids(store, 'money invo')).toEqual(['finance']);
    expect(await ids(store, 'finance pii')).toEqual([]);
    expect(await ids(store, 'gdpr pii')).toEqual(['gdpr']);
  });

  it('ranks name matches above description-only matches, and says which fields matched', async () => {
    const store = await catalogue();
    const page = await store.search({ query: 'pii' });
    expect(page.total).toBe(2);
    expect(page.hits.map((hit) => [hit.tag.id, hit.matchedFields])).toEqual([
      ['pii', [{ name: 'name', value: 'PII' }]],
      ['gdpr', [{ name: 'description', value: 'Data under the General Data Protection Regulation, includes PII' }]],
    ]);
    expect((await store.search({ query: 'menu caf' })).hits[0]!.matchedFields).toEqual([
      { name: 'name', value: 'Café menu' },
      { name: 'description', value: 'Things served at the café' },
    ]);
  });

  it('pages text results with exact totals and a stable order when relevance ties', async () => {
    const store = await seeded(
      Array.from({ length: 25 }, (_, i) => [`t${String(i).padStart(2, '0')}`, 'Shared label'] as [string, string]),
    );
    await store.create({ id: 'other', name: 'Unrelated' }, alice);
    const pages = await Promise.all([0, 10, 20].map((start) => store.search({ query: 'shared', start, count: 10 })));
    expect(pages.map((p) => [p.count, p.total])).toEqual([
      [10, 25],
      [10, 25],
      [5, 25],
    ]);
    const seen = pages.flatMap((p) => p.hits.map((hit) => hit.tag.id));
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, '0')}`));
  });

  it.each([
    '"',
    '""',
    "'",
    '*',
    '**',
    '-',
    '--',
    ':',
    'NEAR(',
    'NEAR(a b, 2)',
    '(',
    ')',
    '^',
    '+',
    '{name}:fin',
    'name:fin',
    'fin*',
    '-fin',
    'fin"',
    '"fin',
    'AND',
    'OR',
    'NOT',
    'fin AND',
    'OR pii',
    'fin NOT pii',
    'a : b',
    '\\',
    '\u0000',
    '🏷️',
    'pii*"*',
    '*pii',
    'x'.repeat(MAX_QUERY_LENGTH),
  ])('never lets FTS5 syntax in the query %j cause an error', async (query) => {
    const page = await (await catalogue()).search({ query });
    expect(page.total).toBe(page.hits.length);
  });

  it('treats syntax characters as separators and operator words as plain words', async () => {
    const store = await catalogue();
    expect(await ids(store, 'fin*')).toEqual(['finance']);
    expect(await ids(store, '-fin')).toEqual(['finance']);
    expect(await ids(store, 'name:fin')).toEqual([]); // "name" is a word here, not a column filter
    expect(await ids(store, '"fin')).toEqual(['finance']);
    expect(await ids(store, 'NEAR(fin')).toEqual([]);
    expect(await ids(store, 'AND')).toEqual(['android', 'finance']); // "Android apps" by name, "budgets and" by description
    expect(await ids(store, '"')).toEqual([]); // no words: nothing to match
  });

  it('survives random strings of FTS5 syntax', async () => {
    const store = await catalogue();
    const alphabet = ['"', '*', '-', '+', ':', '(', ')', '^', '{', '}', ',', 'NEAR', 'AND', 'OR', 'NOT', ' ', 'pi', 'fin', 'é', '\u0301'];
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      await expect(store.search({ query }), query).resolves.toBeDefined();
    }
  });
});

describe('search follows every write', () => {
  it('finds renamed, redescribed and created tags under their new words, and forgets deleted ones', async () => {
    const { entities, store } = await seed(CATALOGUE);
    await store.update('urn:li:tag:finance', { name: 'Treasury' }, alice);
    expect(await ids(store, 'fina')).toEqual(['finance']); // still found by its id, as in DataHub (TagKey.name is searchable)
    expect(await ids(store, 'treas fina')).toEqual(['finance']);
    expect(await ids(store, 'treas')).toEqual(['finance']);
    expect(await ids(store, 'budg')).toEqual(['finance']); // description kept

    await store.setDescription('urn:li:tag:finance', 'Cash flow', alice);
    expect(await ids(store, 'budg')).toEqual([]);
    expect(await ids(store, 'cash')).toEqual(['finance']);

    await store.setColor('urn:li:tag:finance', '#0f0', alice);
    expect(await ids(store, 'cash')).toEqual(['finance']);

    await store.update('urn:li:tag:finance', { name: 'Treasury', description: null }, alice);
    expect(await ids(store, 'cash')).toEqual([]);

    await store.delete('urn:li:tag:pii', alice);
    expect(await ids(store, 'pii')).toEqual(['gdpr']);
    expect((await store.search({ query: '*' })).total).toBe(4);

    await store.create({ id: 'new', name: 'Newcomer' }, alice);
    expect(await ids(store, 'newc')).toEqual(['new']);

    // What search found is what the aspect store holds.
    expect((await entities.store.get('urn:li:tag:finance', 'tagProperties'))?.value).toEqual({ name: 'Treasury', colorHex: '#0f0' });
    expect(await entities.store.exists('urn:li:tag:pii')).toBe(false);
  });
});

describe('paging rules', () => {
  const bad = (message: string) => ({ status: 400, kind: 'BAD_REQUEST', message });

  it('refuses a negative start, a count outside 0 to 1000 and an over-long query', async () => {
    const store = await catalogue();
    expect(await thrown(() => store.search({ start: -1 }))).toEqual(bad(`'start' must be an integer of at least 0`));
    expect(await thrown(() => store.search({ count: MAX_PAGE_SIZE + 1 }))).toEqual(bad(`'count' must be an integer from 0 to 1000`));
    expect(await thrown(() => store.search({ count: -1 }))).toEqual(bad(`'count' must be an integer from 0 to 1000`));
    expect(await thrown(() => store.search({ count: 2.5 }))).toEqual(bad(`'count' must be an integer from 0 to 1000`));
    expect(await thrown(() => store.search({ query: 'x'.repeat(MAX_QUERY_LENGTH + 1) }))).toEqual(
      bad(`'query' must be at most ${MAX_QUERY_LENGTH} characters long`),
    );
    expect((await store.search({ count: MAX_PAGE_SIZE })).total).toBe(5);
  });
});
