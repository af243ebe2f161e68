import { findEntity } from '@mds/core';
import type { SqlDatabase } from '@mds/db';
import { describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createSqlSearchIndex,
  isFacetField,
  searchDocument,
  SearchQueryError,
  type Criterion,
  type SearchDocument,
  type SearchIndex,
} from '../src/index';

/** A fresh database and the index on it, migrated. */
export type IndexFactory = () => Promise<{ db: SqlDatabase; index: SearchIndex }>;

const dataset = (name: string, more: Partial<SearchDocument> = {}): SearchDocument => ({
  urn: `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`,
  entityType: 'dataset',
  removed: false,
  name,
  description: '',
  platform: 'urn:li:dataPlatform:hive',
  origin: 'PROD',
  tags: [],
  fieldTags: [],
  terms: [],
  owners: [],
  domains: [],
  browsePaths: [],
  customProperties: [],
  containers: [],
  typeNames: [],
  text: '',
  fields: [],
  ...more,
});
const dashboard = (id: string, more: Partial<SearchDocument> = {}): SearchDocument => ({
  ...dataset(id),
  urn: `urn:li:dashboard:(looker,${id})`,
  entityType: 'dashboard',
  platform: 'urn:li:dataPlatform:looker',
  origin: null,
  ...more,
});

const urnsOf = (result: { hits: { urn: string }[] }) => result.hits.map((h) => h.urn);

/** The search index contract: every adapter passes it. */
export function searchIndexContract(name: string, fresh: IndexFactory): void {
  const seeded = async (...docs: SearchDocument[]) => {
    const { db, index } = await fresh();
    await db.transaction((tx) => index.put(tx, docs));
    return index;
  };
  const all = { input: '*', start: 0, count: 100, facets: [] } as const;

  describe(`search index contract: ${name}`, () => {
    it('compares values as text (no pattern characters), with every condition of entities-api §9.3', async () => {
      const index = await seeded(
        dataset('100%_done', { typeNames: ['View'], containers: ['urn:li:container:c1'] }),
        dataset('b_c', { typeNames: ['Table'] }),
        dataset('abc'),
      );
      const where = async (field: string, condition: string, values: string[]) =>
        urnsOf(await index.search({ ...all, filters: [[{ field, condition, values }]] })).sort();
      expect(await where('name', 'CONTAIN', ['%'])).toEqual([dataset('100%_done').urn]);
      expect(await where('name', 'CONTAIN', ['_'])).toEqual([dataset('100%_done').urn, dataset('b_c').urn].sort());
      expect(await where('name', 'START_WITH', ['b_'])).toEqual([dataset('b_c').urn]);
      expect(await where('name', 'END_WITH', ['bc', '_c'])).toEqual([dataset('abc').urn, dataset('b_c').urn].sort());
      expect(await where('name', 'IEQUAL', ['ABC'])).toEqual([dataset('abc').urn]);
      expect(await where('name', 'GREATER_THAN', ['abc'])).toEqual([dataset('b_c').urn]);
      expect(await where('name', 'GREATER_THAN_OR_EQUAL_TO', ['abc'])).toEqual([dataset('abc').urn, dataset('b_c').urn].sort());
      expect(await where('name', 'LESS_THAN', ['abc'])).toEqual([dataset('100%_done').urn]);
      expect(await where('name', 'LESS_THAN_OR_EQUAL_TO', ['abc'])).toEqual([dataset('100%_done').urn, dataset('abc').urn].sort());
      expect(await where('typeNames', 'EQUAL', ['View'])).toEqual([dataset('100%_done').urn]);
      expect(await where('container', 'EQUAL', ['urn:li:container:c1'])).toEqual([dataset('100%_done').urn]);
    });

    it('a filter on removed shows soft-deleted entities without includeSoftDeleted', async () => {
      const index = await seeded(dataset('live'), dataset('gone', { removed: true }));
      expect(urnsOf(await index.search({ ...all, filters: [[{ field: 'removed', values: ['true'] }]] }))).toEqual([dataset('gone').urn]);
    });

    it("compares numeric fields (COUNT, DATETIME, num-values) as numbers and boolean ones as booleans, as DataHub's typed index does", async () => {
      const index = await seeded(
        dataset('small', {
          fields: [
            ['rowCount', '9'],
            ['lastModifiedAt', '999'],
            ['hasDescription', 'false'],
            ['numActiveIncidents', '2'],
          ],
        }),
        dataset('large', {
          fields: [
            ['rowCount', '10'],
            ['lastModifiedAt', '1700000000000'],
            ['hasDescription', 'true'],
            ['numActiveIncidents', '10'],
          ],
        }),
        dataset('huge', { fields: [['rowCount', '100']], removed: true }),
        // Not a number where the model declares one: it matches no comparison and breaks none.
        dataset('odd', { fields: [['rowCount', 'n/a']] }),
      );
      const where = async (field: string, condition: string, values: string[], negated = false) =>
        urnsOf(await index.search({ ...all, includeSoftDeleted: true, filters: [[{ field, condition, values, negated }]] })).sort();
      const urns = (...names: string[]) => names.map((n) => dataset(n).urn).sort();
      // As text '9' > '10' > '100'; as numbers the other way round.
      expect(await where('rowCount', 'GREATER_THAN', ['9'])).toEqual(urns('huge', 'large'));
      expect(await where('rowCount', 'GREATER_THAN_OR_EQUAL_TO', ['10'])).toEqual(urns('huge', 'large'));
      expect(await where('rowCount', 'LESS_THAN', ['10'])).toEqual(urns('small'));
      expect(await where('rowCount', 'LESS_THAN_OR_EQUAL_TO', [' 1e1 '])).toEqual(urns('large', 'small'));
      expect(await where('rowCount', 'EQUAL', ['10.0', '100'])).toEqual(urns('huge', 'large'));
      expect(await where('rowCount', 'GREATER_THAN', ['9'], true)).toEqual(urns('odd', 'small'));
      expect(await where('lastModifiedAt', 'GREATER_THAN', ['1000'])).toEqual(urns('large'));
      expect(await where('numActiveIncidents', 'LESS_THAN', ['3'])).toEqual(urns('small'));
      // Text conditions stay text conditions.
      expect(await where('rowCount', 'START_WITH', ['10'])).toEqual(urns('huge', 'large'));
      expect(await where('hasDescription', 'EQUAL', ['TRUE'])).toEqual(urns('large'));
      expect(await where('hasDescription', 'LESS_THAN', ['true'])).toEqual(urns('small'));
      expect(await where('removed', 'EQUAL', ['True'])).toEqual(urns('huge'));
      expect(await where('removed', 'GREATER_THAN', ['false'])).toEqual(urns('huge'));

      // A value of the wrong kind is the caller's mistake, named with the field.
      const refused = (field: string, condition: string, value: string) =>
        index.search({ ...all, filters: [[{ field, condition, values: [value] }]] });
      await expect(refused('rowCount', 'GREATER_THAN', 'ten')).rejects.toThrow(
        new SearchQueryError('Filter on rowCount needs numbers (a count, or a time in epoch milliseconds): "ten" is not one'),
      );
      await expect(refused('lastModifiedAt', 'EQUAL', '2024-01-01')).rejects.toThrow(/^Filter on lastModifiedAt needs numbers/);
      await expect(refused('hasDescription', 'EQUAL', 'yes')).rejects.toThrow(
        new SearchQueryError('Filter on hasDescription needs true or false: "yes" is neither'),
      );
      await expect(refused('removed', 'EQUAL', '1')).rejects.toThrow(/^Filter on removed needs true or false/);
    });

    it('keeps an entity with thousands of tags (rows inserted in chunks)', async () => {
      const tags = Array.from({ length: 12_000 }, (_, i) => `urn:li:tag:t${i}`);
      const index = await seeded(dataset('tagged', { tags }));
      expect((await index.search({ ...all, filters: [[{ field: 'tags', values: ['urn:li:tag:t11999'] }]] })).total).toBe(1);
    });

    it('keeps a value of many kilobytes (a long custom property) and filters on it', async () => {
      // Numbers that do not compress: a B-tree entry holds ~2.7 kB at most, even compressed.
      const long = `ids=${Array.from({ length: 4000 }, (_, i) => ((i * 7919) % 100_003).toString(36)).join(',')}`;
      const index = await seeded(dataset('long', { customProperties: [long] }), dataset('other', { customProperties: [long] }));
      expect((await index.search({ ...all, filters: [[{ field: 'customProperties', values: [long] }]] })).total).toBe(2);
    });

    it('puts, replaces and removes documents', async () => {
      const { db, index } = await fresh();
      await db.transaction((tx) => index.put(tx, dataset('orders', { description: 'first' })));
      await db.transaction((tx) => index.put(tx, dataset('orders', { description: 'second words' })));
      expect(urnsOf(await index.search({ ...all, input: 'second' }))).toEqual([dataset('orders').urn]);
      expect((await index.search({ ...all, input: 'first' })).total).toBe(0);
      await db.transaction((tx) => index.remove(tx, dataset('orders').urn));
      expect((await index.search(all)).total).toBe(0);
      await db.transaction((tx) => index.remove(tx, 'urn:li:tag:never'));
    });

    it('replaces some documents and adds others in one put, sharing new values, the last of one urn kept', async () => {
      const { db, index } = await fresh();
      await db.transaction((tx) => index.put(tx, [dataset('a', { tags: ['urn:li:tag:old'] }), dataset('b', { tags: ['urn:li:tag:old'] })]));
      await db.transaction((tx) =>
        index.put(tx, [
          dataset('b', { description: 'replaced', tags: ['urn:li:tag:new'] }),
          dataset('c', { tags: ['urn:li:tag:new'] }),
          dataset('c', { description: 'last', tags: ['urn:li:tag:new'] }),
        ]),
      );
      const tagged = async (tag: string) =>
        urnsOf(await index.search({ ...all, filters: [[{ field: 'tags', values: [tag] }]], sort: { field: 'urn', order: 'ASCENDING' } }));
      expect(await tagged('urn:li:tag:old')).toEqual([dataset('a').urn]);
      expect(await tagged('urn:li:tag:new')).toEqual([dataset('b').urn, dataset('c').urn].sort());
      expect(urnsOf(await index.search({ ...all, input: 'replaced' }))).toEqual([dataset('b').urn]);
      expect(urnsOf(await index.search({ ...all, input: 'last' }))).toEqual([dataset('c').urn]);
      expect((await index.search(all)).total).toBe(3);
    });

    it('matches every word case-insensitively as a prefix, name ranked over description', async () => {
      const index = await seeded(
        dataset('customer_orders', { description: 'one row per order' }),
        dataset('payments', { description: 'Orders paid by card' }),
        dataset('inventory'),
      );
      const found = await index.search({ ...all, input: 'ORD' });
      expect(urnsOf(found)).toEqual([dataset('customer_orders').urn, dataset('payments').urn]);
      expect(found.hits[1]!.matchedFields).toEqual([{ name: 'description', value: 'Orders paid by card' }]);
      expect((await index.search({ ...all, input: 'paid card' })).total).toBe(1);
      expect((await index.search({ ...all, input: 'card paid nothing' })).total).toBe(0);
      expect(urnsOf(await index.search({ ...all, input: 'car pai' }))).toEqual([dataset('payments').urn]);
    });

    it('takes query syntax as plain words: punctuation separates, operator words are words, no word matches nothing', async () => {
      const index = await seeded(
        dataset('android_apps', { description: 'Phones' }),
        dataset('budgets', { description: 'Money and invoices' }),
        dataset('cafe', { description: 'Things served at the café' }),
        dataset('table_4242'),
        dataset('table_42'),
        dataset('t', { description: 'table 7, not 42' }),
      );
      const found = async (input: string) => urnsOf(await index.search({ ...all, input })).sort();
      expect(await found('AND')).toEqual([dataset('android_apps').urn, dataset('budgets').urn]);
      expect(await found('-money "invo*')).toEqual([dataset('budgets').urn]);
      expect(await found('name:money')).toEqual([]);
      expect(await found('NEAR( " ) :')).toEqual([]);
      expect(await found(' * ')).toHaveLength(6);
      // An identifier keeps its `_`: its tokens must come in order, the last as a prefix.
      expect(await found('table_42')).toEqual([dataset('table_42').urn, dataset('table_4242').urn].sort());
      const accented = await index.search({ ...all, input: 'CAFE' });
      expect(accented.hits.map((h) => [h.urn, h.matchedFields])).toEqual([
        [
          dataset('cafe').urn,
          [
            { name: 'name', value: 'cafe' },
            { name: 'description', value: 'Things served at the café' },
          ],
        ],
      ]);
    });

    it('filters: EQUAL, CONTAIN, START_WITH, EXISTS, negated, or of and-groups, on columns and multi-valued fields', async () => {
      const index = await seeded(
        dataset('a', { tags: ['urn:li:tag:pii'], owners: ['urn:li:corpuser:jdoe'] }),
        dataset('b', { tags: ['urn:li:tag:gold', 'urn:li:tag:pii'], platform: 'urn:li:dataPlatform:kafka' }),
        dataset('c', { domains: ['urn:li:domain:sales'], customProperties: ['team=core'] }),
        dashboard('d1', { tags: ['urn:li:tag:gold'] }),
      );
      const where = async (filters: Parameters<SearchIndex['search']>[0]['filters']) =>
        urnsOf(await index.search({ ...all, filters })).sort();
      expect(await where([[{ field: 'tags', values: ['urn:li:tag:pii'] }]])).toEqual([dataset('a').urn, dataset('b').urn].sort());
      expect(
        await where([
          [
            { field: 'tags', values: ['urn:li:tag:pii'] },
            { field: 'platform', values: ['urn:li:dataPlatform:kafka'], negated: true },
          ],
        ]),
      ).toEqual([dataset('a').urn]);
      expect(
        await where([[{ field: 'owners', values: ['urn:li:corpuser:jdoe'] }], [{ field: '_entityType', values: ['DASHBOARD'] }]]),
      ).toEqual([dashboard('d1').urn, dataset('a').urn].sort());
      expect(await where([[{ field: 'platform', values: ['kaf'], condition: 'CONTAIN' }]])).toEqual([dataset('b').urn]);
      expect(await where([[{ field: 'urn', values: ['urn:li:dashboard:'], condition: 'START_WITH' }]])).toEqual([dashboard('d1').urn]);
      expect(await where([[{ field: 'domains', condition: 'EXISTS' }]])).toEqual([dataset('c').urn]);
      expect(await where([[{ field: 'customProperties', values: ['team=core'] }]])).toEqual([dataset('c').urn]);
      expect(await where([[{ field: 'origin', value: 'PROD' }]])).toHaveLength(3);
      await expect(
        index.search({ ...all, filters: [[{ field: 'platform', values: ['x'], condition: 'DESCENDANTS_INCL' }]] }),
      ).rejects.toThrow(new SearchQueryError('Unsupported filter condition DESCENDANTS_INCL'));
      await expect(index.search({ ...all, filters: [[{ field: 'colour', values: ['x'] }]] })).rejects.toThrow(
        /Unknown filter field colour/,
      );
    });

    it('a term every or-group requires (a scope) finds each document once, whatever else the groups ask', async () => {
      const index = await seeded(
        dataset('a', { tags: ['urn:li:tag:pii', 'urn:li:tag:gold'], owners: ['urn:li:corpuser:jdoe'] }),
        dataset('b', { tags: ['urn:li:tag:pii'], platform: 'urn:li:dataPlatform:kafka' }),
        dataset('c', { tags: ['urn:li:tag:gold'], removed: true }),
        dataset('d'),
        dashboard('d1', { tags: ['urn:li:tag:pii'] }),
      );
      const both: Criterion = { field: 'tags', values: ['urn:li:tag:pii', 'urn:li:tag:gold'] };
      const where = async (filters: Criterion[][], more: { includeSoftDeleted?: boolean; entityTypes?: string[] } = {}) => {
        const found = await index.search({ ...all, ...more, filters, facets: undefined, sort: { field: 'name', order: 'ASCENDING' } });
        return { urns: urnsOf(found), total: found.total, tags: found.facets.find((f) => f.field === 'tags')?.values };
      };
      // `a` holds both values and is found, and counted, once.
      expect(await where([[both]])).toEqual({
        urns: [dataset('a').urn, dataset('b').urn, dashboard('d1').urn],
        total: 3,
        tags: [
          { value: 'urn:li:tag:pii', count: 3 },
          { value: 'urn:li:tag:gold', count: 1 },
        ],
      });
      expect((await where([[both]], { includeSoftDeleted: true, entityTypes: ['DATASET'] })).urns).toEqual([
        dataset('a').urn,
        dataset('b').urn,
        dataset('c').urn,
      ]);
      const kafka: Criterion = { field: 'platform', values: ['urn:li:dataPlatform:kafka'] };
      const jdoe: Criterion = { field: 'owners', values: ['urn:li:corpuser:jdoe'] };
      expect(
        (
          await where([
            [both, kafka],
            [jdoe, both],
          ])
        ).urns,
      ).toEqual([dataset('a').urn, dataset('b').urn]);
      // Not in every group, negated, or not compared by equality: no lead, the same answers.
      expect((await where([[both, kafka], [{ field: '_entityType', values: ['DASHBOARD'] }]])).urns).toEqual([
        dataset('b').urn,
        dashboard('d1').urn,
      ]);
      expect((await where([[{ ...both, negated: true }]])).urns).toEqual([dataset('d').urn]);
      expect((await where([[{ field: 'tags', values: ['gold'], condition: 'CONTAIN' }]])).urns).toEqual([dataset('a').urn]);
      expect((await where([[{ field: 'tags', value: 'urn:li:tag:gold' }]])).urns).toEqual([dataset('a').urn]);
    });

    it('hides soft-deleted documents unless asked, and limits to entity types', async () => {
      const index = await seeded(dataset('live'), dataset('gone', { removed: true }), dashboard('d'));
      expect(urnsOf(await index.search(all)).sort()).toEqual([dashboard('d').urn, dataset('live').urn].sort());
      expect((await index.search({ ...all, includeSoftDeleted: true })).total).toBe(3);
      expect(urnsOf(await index.search({ ...all, entityTypes: ['DASHBOARD'] }))).toEqual([dashboard('d').urn]);
      expect((await index.search({ ...all, filters: [[{ field: 'removed', values: ['true'] }]], includeSoftDeleted: true })).total).toBe(1);
    });

    it('counts facets over the whole match set, keeping zero buckets of the types asked', async () => {
      const index = await seeded(
        dataset('a', { tags: ['urn:li:tag:pii'], owners: ['urn:li:corpuser:jdoe'] }),
        dataset('b', { tags: ['urn:li:tag:pii', 'urn:li:tag:gold'] }),
        dataset('c', { platform: 'urn:li:dataPlatform:kafka', origin: 'DEV' }),
      );
      const { facets, total, hits } = await index.search({ input: '*', start: 0, count: 1, entityTypes: ['DATASET', 'CHART'] });
      expect([total, hits.length]).toEqual([3, 1]);
      const byField = Object.fromEntries(facets.map((f) => [f.field, f.values]));
      expect(byField._entityType).toEqual([
        { value: 'DATASET', count: 3 },
        { value: 'CHART', count: 0 },
      ]);
      expect(byField.platform).toEqual([
        { value: 'urn:li:dataPlatform:hive', count: 2 },
        { value: 'urn:li:dataPlatform:kafka', count: 1 },
      ]);
      expect(byField.origin).toEqual([
        { value: 'PROD', count: 2 },
        { value: 'DEV', count: 1 },
      ]);
      expect(byField.tags).toEqual([
        { value: 'urn:li:tag:pii', count: 2 },
        { value: 'urn:li:tag:gold', count: 1 },
      ]);
      expect(byField.owners).toEqual([{ value: 'urn:li:corpuser:jdoe', count: 1 }]);
      expect(facets.find((f) => f.field === 'owners')?.displayName).toBe('Owned By');
      expect(
        (await index.search({ input: '*', start: 0, count: 1, maxFacetValues: 1 })).facets.find((f) => f.field === 'tags')?.values,
      ).toEqual([{ value: 'urn:li:tag:pii', count: 2 }]);
    });

    it('counts nested facets as DataHub flattens them: `_entityType␞typeNames` gives each type, then type␞sub-type', async () => {
      const index = await seeded(
        dataset('v1', { typeNames: ['View'], tags: ['urn:li:tag:pii'] }),
        dataset('v2', { typeNames: ['View'] }),
        dataset('t1', { typeNames: ['Table'], tags: ['urn:li:tag:pii'] }),
        dataset('bare'),
        dashboard('d1', { typeNames: ['Dashboard'], tags: ['urn:li:tag:gold'] }),
      );
      const nested = async (facet: string, more: { maxFacetValues?: number; filters?: Criterion[][] } = {}) =>
        (await index.search({ ...all, ...more, facets: [facet] })).facets;
      expect(await nested('_entityType␞typeNames')).toEqual([
        {
          field: '_entityType␞typeNames',
          displayName: '_entityType␞typeNames',
          values: [
            // A dataset with no sub-type counts for its type, under no sub-type.
            { value: 'DATASET', count: 4 },
            { value: 'DATASET␞View', count: 2 },
            { value: 'DASHBOARD', count: 1 },
            { value: 'DASHBOARD␞Dashboard', count: 1 },
            { value: 'DATASET␞Table', count: 1 },
          ],
        },
      ]);
      // Any two facet fields nest, a term field first too; counts follow the filters.
      expect((await nested('tags␞_entityType'))[0]!.values).toEqual([
        { value: 'urn:li:tag:pii', count: 2 },
        { value: 'urn:li:tag:pii␞DATASET', count: 2 },
        { value: 'urn:li:tag:gold', count: 1 },
        { value: 'urn:li:tag:gold␞DASHBOARD', count: 1 },
      ]);
      expect((await nested('_entityType␞typeNames', { filters: [[{ field: 'typeNames', values: ['View'] }]] }))[0]!.values).toEqual([
        { value: 'DATASET', count: 2 },
        { value: 'DATASET␞View', count: 2 },
      ]);
      // maxFacetValues bounds each level: one type, and one sub-type under it.
      expect((await nested('_entityType␞typeNames', { maxFacetValues: 1 }))[0]!.values).toEqual([
        { value: 'DATASET', count: 4 },
        { value: 'DATASET␞View', count: 2 },
      ]);
      // One of the facets counted by default, as in DataHub.
      expect(
        (await index.search({ ...all, facets: undefined })).facets.find((f) => f.field === '_entityType␞typeNames')?.values.length,
      ).toBe(5);
      // Every level must be a facet field for the name to be one (callers refuse the others by name).
      expect(
        ['_entityType␞typeNames', 'platform␞origin', '_entityType␞nope', '_entityType␞', 'removed␞origin'].filter(isFacetField),
      ).toEqual(['_entityType␞typeNames', 'platform␞origin']);
    });

    it("filters and facets on a structured property's values; moreFacets counts some besides the defaults", async () => {
      const RETENTION = 'structuredProperties.io.acryl.privacy.retentionTime';
      const index = await seeded(
        dataset('kept', { fields: [[RETENTION, '90']] }),
        dataset('short', { fields: [[RETENTION, '30']] }),
        dataset('both', {
          fields: [
            [RETENTION, '30'],
            [RETENTION, '90'],
          ],
        }),
        dataset('none'),
      );
      expect(urnsOf(await index.search({ ...all, filters: [[{ field: RETENTION, values: ['30'] }]] })).sort()).toEqual(
        [dataset('both').urn, dataset('short').urn].sort(),
      );
      // A range with number bounds compares numbers: 9 < 30 < 90 < 100 (as text, '100' < '30' < '9').
      const range = (condition: string, value: string) =>
        index.search({ ...all, filters: [[{ field: RETENTION, condition, values: [value] }]] }).then((r) => urnsOf(r).sort());
      expect(await range('GREATER_THAN', '9')).toEqual([dataset('both').urn, dataset('kept').urn, dataset('short').urn].sort());
      expect(await range('LESS_THAN', '100')).toEqual([dataset('both').urn, dataset('kept').urn, dataset('short').urn].sort());
      expect(await range('GREATER_THAN_OR_EQUAL_TO', '31')).toEqual([dataset('both').urn, dataset('kept').urn].sort());
      const counted = await index.search({ ...all, facets: [RETENTION] });
      expect(counted.facets).toEqual([
        {
          field: RETENTION,
          displayName: RETENTION,
          values: [
            { value: '30', count: 2 },
            { value: '90', count: 2 },
          ],
        },
      ]);
      const defaults = await index.search({ ...all, facets: undefined, moreFacets: [RETENTION] });
      expect(defaults.facets.map((f) => f.field)).toEqual(
        expect.arrayContaining(['_entityType', 'tags', '_entityType␞typeNames', RETENTION]),
      );
    });

    it("filters and facets on any @Searchable field of DataHub's model, its facets (addToFilters) counted by default", async () => {
      const index = await seeded(
        dataset('old', {
          fields: [
            ['deprecated', 'true'],
            ['hasOwners', 'false'],
            ['numActiveIncidents', '2'],
          ],
        }),
        dataset('new', {
          fields: [
            ['deprecated', 'false'],
            ['hasOwners', 'true'],
            ['numActiveIncidents', '0'],
          ],
        }),
        dataset('bare'),
      );
      const where = async (field: string, values: string[]) => urnsOf(await index.search({ ...all, filters: [[{ field, values }]] }));
      expect(await where('deprecated', ['true'])).toEqual([dataset('old').urn]);
      expect(await where('hasOwners', ['true'])).toEqual([dataset('new').urn]);
      expect(await where('numActiveIncidents', ['2'])).toEqual([dataset('old').urn]);
      // DataHub's UI filters on hasFailingAssertions (UpstreamHealth.tsx), which no open-source aspect declares:
      // no document matches it, and its negation matches every one, as on DataHub's Elasticsearch.
      expect(await where('hasFailingAssertions', ['true'])).toEqual([]);
      expect(
        urnsOf(await index.search({ ...all, filters: [[{ field: 'hasFailingAssertions', values: ['true'], negated: true }]] })).sort(),
      ).toEqual([dataset('bare').urn, dataset('new').urn, dataset('old').urn].sort());
      // A name the model does not declare is still the caller's mistake.
      await expect(index.search({ ...all, filters: [[{ field: 'deprecatedd', values: ['true'] }]] })).rejects.toThrow(
        'Unknown filter field deprecatedd',
      );
      const { facets } = await index.search({ input: '*', start: 0, count: 0, entityTypes: ['dataset'] });
      const deprecated = facets.find((f) => f.field === 'deprecated');
      expect(deprecated).toEqual({
        field: 'deprecated',
        displayName: 'Deprecated',
        values: [
          { value: 'false', count: 1 },
          { value: 'true', count: 1 },
        ],
      });
      // Asked by name, any field is a facet.
      const asked = await index.search({ ...all, facets: ['numActiveIncidents'] });
      expect(asked.facets.map((f) => [f.field, f.values.length])).toEqual([['numActiveIncidents', 2]]);
    });

    it('keeps apart the entity types GraphQL calls OTHER (data processes, secrets, …): each answers by its registry name', async () => {
      const process = { ...dataset('p'), urn: 'urn:li:dataProcess:(etl,airflow,PROD)', entityType: 'dataProcess', name: 'etl' };
      const secret = { ...dataset('s'), urn: 'urn:li:dataHubSecret:token', entityType: 'dataHubSecret', name: 'token' };
      const index = await seeded(process, secret, dataset('orders'));
      const { facets, total } = await index.search({ input: '*', start: 0, count: 10, entityTypes: ['OTHER'] });
      expect(total).toBe(2);
      // Every type OTHER stands for keeps its bucket, the empty ones at zero; no bucket is called OTHER.
      const buckets = facets.find((f) => f.field === '_entityType')!.values;
      expect(buckets.slice(0, 2)).toEqual([
        { value: 'dataHubSecret', count: 1 },
        { value: 'dataProcess', count: 1 },
      ]);
      expect(buckets.slice(2).every((bucket) => bucket.count === 0 && bucket.value !== 'OTHER')).toBe(true);
      expect(buckets.map((bucket) => bucket.value)).toContain('mlModelDeployment');
      const only = await index.search({ ...all, filters: [[{ field: '_entityType', values: ['dataHubSecret'] }]] });
      expect(urnsOf(only)).toEqual([secret.urn]);
      expect(urnsOf(await index.search({ ...all, entityTypes: ['dataProcess'] }))).toEqual([process.urn]);
    });

    it('pages with start and count, the total unchanged, sorted by urn unless asked otherwise, by name case aside', async () => {
      const index = await seeded(...['c', 'a', 'e', 'b', 'd'].map((n) => dataset(n, { name: n === 'b' ? 'B' : n === 'e' ? 'A' : n })));
      const page = await index.search({ ...all, start: 1, count: 2 });
      expect([page.total, urnsOf(page)]).toEqual([5, [dataset('b').urn, dataset('c').urn]]);
      const byName = await index.search({ ...all, count: 3, sort: { field: 'name', order: 'ASCENDING' } });
      expect(urnsOf(byName)).toEqual([dataset('a').urn, dataset('e').urn, dataset('b').urn]);
      expect(urnsOf(await index.search({ ...all, count: 2, sort: { field: 'urn', order: 'DESCENDING' } }))).toEqual([
        dataset('e').urn,
        dataset('d').urn,
      ]);
    });

    it('sorts by entity type then name (DataHub `_index`), either way round, urn breaking ties', async () => {
      const index = await seeded(dataset('b'), dashboard('a'), dataset('a', { name: 'A' }), dashboard('c'));
      const byType = async (order: 'ASCENDING' | 'DESCENDING') =>
        urnsOf(await index.search({ ...all, sort: { field: 'entityType', order } }));
      expect(await byType('ASCENDING')).toEqual([dashboard('a').urn, dashboard('c').urn, dataset('a').urn, dataset('b').urn]);
      expect(await byType('DESCENDING')).toEqual([dataset('a').urn, dataset('b').urn, dashboard('a').urn, dashboard('c').urn]);
    });

    it('autocompletes within filters (an or of and-groups), and refuses an unknown filter field', async () => {
      const index = await seeded(
        dataset('orders', { tags: ['urn:li:tag:pii'] }),
        dataset('order_lines', { platform: 'urn:li:dataPlatform:kafka' }),
        dataset('ordinals'),
      );
      const names = async (filters: { field: string; values: string[] }[][]) =>
        (await index.autocomplete('dataset', 'ord', 10, { filters })).suggestions.sort();
      expect(await names([[{ field: 'tags', values: ['urn:li:tag:pii'] }]])).toEqual(['orders']);
      expect(
        await names([[{ field: 'tags', values: ['urn:li:tag:pii'] }], [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }]]),
      ).toEqual(['order_lines', 'orders']);
      expect(await names([])).toEqual(['order_lines', 'orders', 'ordinals']);
      await expect(index.autocomplete('dataset', 'ord', 10, { filters: [[{ field: 'nope', values: ['x'] }]] })).rejects.toThrow(
        SearchQueryError,
      );
    });

    it('lists an entity type, autocompletes names, browses paths', async () => {
      const index = await seeded(
        dataset('orders', { browsePaths: ['/prod/hive/sales'] }),
        dataset('order_lines', { browsePaths: ['/prod/hive/sales'] }),
        dataset('users', { browsePaths: ['/prod/hive/crm'], removed: true }),
        dataset('events', { browsePaths: ['/prod/kafka'] }),
      );
      expect(await index.list('dataset', 0, 2)).toEqual({
        entities: [dataset('events').urn, dataset('order_lines').urn],
        start: 0,
        count: 2,
        total: 3,
      });
      expect((await index.list('dataset', 0, 10, true)).total).toBe(4);
      const completed = await index.autocomplete('dataset', 'ord', 10);
      expect(completed.suggestions.sort()).toEqual(['order_lines', 'orders']);
      expect(completed.entities).toHaveLength(2);
      const top = await index.browse('dataset', '/prod', 0, 10);
      expect(top.groups).toEqual([
        { name: 'hive', count: 2 },
        { name: 'kafka', count: 1 },
      ]);
      const kafkaOnly = await index.browse('dataset', '/prod', 0, 10, { filters: [[{ field: 'name', values: ['events'] }]] });
      expect([kafkaOnly.groups, kafkaOnly.metadata.totalNumEntities]).toEqual([[{ name: 'kafka', count: 1 }], 1]);
      const twice = await seeded(dataset('x', { browsePaths: ['/a/b/c', '/a/b/d'] }));
      expect((await twice.browse('dataset', '/a', 0, 10)).groups).toEqual([{ name: 'b', count: 1 }]);
      const sales = await index.browse('dataset', '/prod/hive/sales', 0, 10);
      expect(sales).toMatchObject({
        entities: [
          { name: 'order_lines', urn: dataset('order_lines').urn },
          { name: 'orders', urn: dataset('orders').urn },
        ],
        groups: [],
        numEntities: 2,
      });
    });

    it('puts nothing when the caller’s transaction rejects', async () => {
      const { db, index } = await fresh();
      await expect(
        db.transaction(async (tx) => {
          await index.put(tx, dataset('doomed'));
          throw new Error('the aspect write failed');
        }),
      ).rejects.toThrow('the aspect write failed');
      expect((await index.search(all)).total).toBe(0);
    });

    it('answers faceted searches over 5,000 documents with exact totals', async () => {
      const docs = Array.from({ length: 5_000 }, (_, i) =>
        dataset(`table_${i}`, {
          description: i % 10 === 0 ? 'orders ledger' : 'events',
          tags: [`urn:li:tag:t${i % 4}`],
          typeNames: [i % 3 === 0 ? 'Table' : 'View'],
          // Every other run of 20 on Kafka: the matches are of two platforms, counted as one type for the nested facet.
          ...(Math.floor(i / 20) % 2 === 1 ? { platform: 'urn:li:dataPlatform:kafka' } : {}),
        }),
      );
      const index = await seeded(...docs);
      const found = await index.search({ input: 'ledger', start: 0, count: 10, filters: [[{ field: 'tags', values: ['urn:li:tag:t0'] }]] });
      expect(found.total).toBe(250); // i % 10 == 0 and i % 4 == 0: every 20th
      const facet = (field: string) => found.facets.find((f) => f.field === field)?.values;
      expect(facet('tags')).toEqual([{ value: 'urn:li:tag:t0', count: 250 }]);
      expect(facet('platform')).toEqual([
        { value: 'urn:li:dataPlatform:hive', count: 125 },
        { value: 'urn:li:dataPlatform:kafka', count: 125 },
      ]);
      // Of every 20th document, those whose number is a multiple of 3 (every third of them, from the first) are tables.
      expect(facet('_entityType␞typeNames')).toEqual([
        { value: 'DATASET', count: 250 },
        { value: 'DATASET␞View', count: 166 },
        { value: 'DATASET␞Table', count: 84 },
      ]);
      // A nested facet starting with a term field joins the found documents level by level, by id.
      const byTag = await index.search({
        input: 'ledger',
        start: 0,
        count: 0,
        filters: [[{ field: 'tags', values: ['urn:li:tag:t0'] }]],
        facets: ['tags␞typeNames'],
      });
      expect(byTag.facets[0]!.values).toEqual([
        { value: 'urn:li:tag:t0', count: 250 },
        { value: 'urn:li:tag:t0␞View', count: 166 },
        { value: 'urn:li:tag:t0␞Table', count: 84 },
      ]);
      // Seeding is what takes time: ~0.3 s on SQLite, ~5 s on PostgreSQL (~1 ms a document, 3 round trips), several
      // times that beside the whole suite.
    }, 90_000);

    it('filters on DataHub’s fieldTags (tags of schema fields only) and title (a chart’s or dashboard’s name only)', async () => {
      const index = await seeded(
        dataset('pets', { tags: ['urn:li:tag:Dimension'] }),
        dataset('orders', { tags: ['urn:li:tag:Dimension'], fieldTags: ['urn:li:tag:Dimension'] }),
        dashboard('petstore', { name: 'Pet store' }),
      );
      const where = async (filters: Parameters<SearchIndex['search']>[0]['filters']) =>
        urnsOf(await index.search({ ...all, filters })).sort();
      expect(await where([[{ field: 'fieldTags', values: ['urn:li:tag:Dimension'] }]])).toEqual([dataset('orders').urn]);
      expect(await where([[{ field: 'title', values: ['Pet'], condition: 'CONTAIN' }]])).toEqual([dashboard('petstore').urn]);
    });

    it("ranks a match by DataHub's boost of the field it is in: names and qualified names, then urns and a chart's tool, then descriptions and field paths, then tags and field descriptions", async () => {
      const derived = (entityType: string, urn: string, aspects: Record<string, unknown>) =>
        searchDocument(findEntity(entityType)!, urn, new Map(Object.entries(aspects)));
      const index = await seeded(
        derived('dataset', dataset('d1').urn, { datasetProperties: { name: 'd1', description: 'Monthly revenue by region' } }),
        derived('dataset', dataset('t1').urn, { globalTags: { tags: [{ tag: 'urn:li:tag:revenue' }] } }),
        derived('dataset', dataset('f1').urn, { schemaMetadata: { fields: [{ fieldPath: 'amount', description: 'revenue' }] } }),
        derived('dataset', dataset('p1').urn, { schemaMetadata: { fields: [{ fieldPath: 'revenue' }] } }),
        derived('chart', 'urn:li:chart:(revenue,c1)', { chartKey: { dashboardTool: 'revenue', chartId: 'c1' } }),
        derived('dataset', dataset('q1').urn, { datasetProperties: { name: 'q1', qualifiedName: 'warehouse.revenue_daily' } }),
      );
      const ranked = urnsOf(await index.search({ ...all, input: 'revenue' }));
      expect(ranked).toHaveLength(6);
      // Boost 10 (and 4 and the urn's 5, twice); 1; 0.5 and 0.1. Within a group the text's own statistics decide, as
      // BM25 over the fields does in DataHub's index (a short field, a word found twice).
      expect(ranked.slice(0, 2).sort()).toEqual([dataset('q1').urn, 'urn:li:chart:(revenue,c1)'].sort());
      expect(ranked.slice(2, 4).sort()).toEqual([dataset('d1').urn, dataset('p1').urn].sort());
      expect(ranked.slice(4).sort()).toEqual([dataset('f1').urn, dataset('t1').urn].sort());
      // A name outweighs a description: a dataset named for the word comes before one only describing it.
      const named = await seeded(
        derived('dataset', dataset('n1').urn, { datasetProperties: { name: 'Revenue', description: 'Sums' } }),
        derived('dataset', dataset('n2').urn, { datasetProperties: { name: 'Sums', description: 'Revenue' } }),
      );
      expect(urnsOf(await named.search({ ...all, input: 'revenue' }))).toEqual([dataset('n1').urn, dataset('n2').urn]);
      // Autocomplete finds names and what weighs as much.
      expect((await index.autocomplete('dataset', 'reven', 10)).entities).toEqual([{ urn: dataset('q1').urn }]);
    });

    it('indexes what searchDocument derives from aspects', async () => {
      const entity = findEntity('dataset')!;
      const urn = dataset('orders').urn;
      const doc = searchDocument(
        entity,
        urn,
        new Map<string, unknown>([
          ['datasetProperties', { name: 'Orders', description: 'All orders' }],
          ['globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }],
        ]),
      );
      const index = await seeded(doc);
      expect(
        urnsOf(await index.search({ ...all, input: 'all orders', filters: [[{ field: 'tags', values: ['urn:li:tag:pii'] }]] })),
      ).toEqual([urn]);
    });
  });
}

/**
 * An index written before its text was weighed (migration 0000 only) keeps answering after the upgrade: its words
 * are found, the name still ranked over the description. `bare`: a fresh database, not migrated.
 */
export function searchUpgradeContract(name: string, bare: () => Promise<SqlDatabase>): void {
  it(`${name}: an index of the first layout answers after its text is weighed (migration 0001)`, async () => {
    const db = await bare();
    const folder = fileURLToPath(new URL(`../migrations/${db.dialect}`, import.meta.url));
    const first = mkdtempSync(join(tmpdir(), 'mds-search-0000-'));
    try {
      cpSync(join(folder, '0000_search.sql'), join(first, '0000_search.sql'));
      mkdirSync(join(first, 'meta'));
      const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      writeFileSync(join(first, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, 1) }));
      await db.migrate({ owner: 'search', folder: first });
    } finally {
      rmSync(first, { recursive: true, force: true });
    }
    // Two documents as the first layout held them: name, description and the rest of the text.
    for (const [docName, description] of [
      ['sums', 'revenue by month'],
      ['revenue', 'sums by month'],
    ] as const) {
      const urn = `urn:li:dataset:(urn:li:dataPlatform:hive,${docName},PROD)`;
      await db.run(
        `INSERT INTO search_document (urn, entity_type, removed, name, description, platform, origin, browse_paths) VALUES (?, 'dataset', 0, ?, ?, NULL, NULL, '[]')`,
        [urn, docName, description],
      );
      const id = Number((await db.get<{ id: number }>('SELECT id FROM search_document WHERE urn = ?', [urn]))!.id);
      if (db.dialect === 'sqlite')
        await db.run('INSERT INTO search_text (rowid, name, description, text) VALUES (?, ?, ?, ?)', [id, docName, description, 'old']);
      else
        await db.run(
          `INSERT INTO search_text (id, words) VALUES (?, setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', 'old'), 'C'))`,
          [id, docName, description],
        );
    }
    const index = createSqlSearchIndex(db);
    await index.migrate();
    const found = await index.search({ input: 'revenue', start: 0, count: 10, facets: [] });
    expect(found.hits.map((h) => h.urn)).toEqual([
      'urn:li:dataset:(urn:li:dataPlatform:hive,revenue,PROD)',
      'urn:li:dataset:(urn:li:dataPlatform:hive,sums,PROD)',
    ]);
    expect((await index.search({ input: 'old month', start: 0, count: 10, facets: [] })).total).toBe(2);
  });

  it(`${name}: facets count documents indexed before the facet rows were kept apart (migration 0002), and again when the facet fields change`, async () => {
    const db = await bare();
    await createSqlSearchIndex(db).migrate();
    const tags = (...names: string[]) => names.map((tag) => `urn:li:tag:${tag}`);
    const docs = [
      dataset('a', { tags: tags('pii'), owners: ['urn:li:corpuser:jdoe'], typeNames: ['Table'] }),
      dataset('b', { tags: tags('pii', 'gold'), typeNames: ['View'] }),
    ];
    await db.transaction((tx) => createSqlSearchIndex(db).put(tx, docs));
    const facets = async (index: SearchIndex) => {
      const found = await index.search({ input: '*', start: 0, count: 0, facets: ['tags', 'owners', '_entityType␞typeNames'] });
      return Object.fromEntries(found.facets.map((f) => [f.field, f.values]));
    };
    const counted = {
      tags: [
        { value: 'urn:li:tag:pii', count: 2 },
        { value: 'urn:li:tag:gold', count: 1 },
      ],
      owners: [{ value: 'urn:li:corpuser:jdoe', count: 1 }],
      '_entityType␞typeNames': [
        { value: 'DATASET', count: 2 },
        { value: 'DATASET␞Table', count: 1 },
        { value: 'DATASET␞View', count: 1 },
      ],
    };
    expect(await facets(createSqlSearchIndex(db))).toEqual(counted);
    // A store whose documents were written before migration 0002: their terms are there, no facet row.
    await db.run('DELETE FROM search_facet');
    await db.run('DELETE FROM search_facet_field');
    const before = createSqlSearchIndex(db);
    expect((await facets(before)).tags).toEqual([]);
    await before.migrate();
    expect(await facets(before)).toEqual(counted);
    // Rows kept for another set of fields (a model whose facets changed) are made again for today's.
    await db.run('DELETE FROM search_facet');
    await db.run("INSERT INTO search_facet_field (field) VALUES ('@retired')");
    const changed = createSqlSearchIndex(db);
    await changed.migrate();
    expect(await facets(changed)).toEqual(counted);
    expect((await db.all<{ field: string }>("SELECT field FROM search_facet_field WHERE field = '@retired'")).length).toBe(0);
    // Removing a document removes its facet rows with it.
    await db.transaction((tx) => changed.remove(tx, docs[1]!.urn));
    expect((await facets(changed)).tags).toEqual([{ value: 'urn:li:tag:pii', count: 1 }]);
  });
}
