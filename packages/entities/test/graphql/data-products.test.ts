import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const PRODUCT = 'urn:li:dataProduct:pet_of_the_week';

/** DataHub's data product golden file (its product lists two containers and an ML feature table), with the containers stored. */
async function products() {
  const api = await goldenGraphql(databases, ['golden_dataproduct_out.json']);
  const container = (id: string, name: string) => ({
    proposal: {
      entityType: 'container',
      entityUrn: `urn:li:container:${id}`,
      changeType: 'UPSERT',
      aspectName: 'containerProperties',
      aspect: { value: JSON.stringify({ name }) },
    },
    place: { action: 'test', path: id },
  });
  const bare = {
    proposal: {
      entityType: 'dataProduct',
      entityUrn: 'urn:li:dataProduct:bare',
      changeType: 'UPSERT',
      aspectName: 'dataProductProperties',
      aspect: { value: JSON.stringify({}) },
    },
    place: { action: 'test', path: 'bare' },
  };
  await api.service.ingest(SYSTEM_ACTOR, [container('DATABASE', 'database'), container('SCHEMA', 'schema'), bare], { batch: true });
  return api;
}

describe("Data products, as DataHub's DataProductMapper and ListDataProductAssetsResolver answer them", () => {
  it("a data product's page (dataProductFields): properties, tags, terms, domain, owners, its assets", async () => {
    const { query } = await products();
    const data = await query(
      `query getDataProduct($urn: String!) {
        dataProduct(urn: $urn) {
          urn type
          properties { name description externalUrl numAssets customProperties { key value associatedUrn } createdOn { time actor { urn } } }
          ownership { owners { owner { ... on CorpUser { urn } } type } }
          tags { tags { tag { urn } associatedUrn } }
          glossaryTerms { terms { term { urn } } }
          domain { domain { urn } }
          institutionalMemory { elements { url } }
          entities(input: { start: 0, count: 0, query: "*" }) { total }
          all: entities(input: { query: "*" }) { start count total searchResults { entity { urn type } } }
        }
      }`,
      { urn: PRODUCT },
    );
    expect(data.dataProduct).toEqual({
      urn: PRODUCT,
      type: 'DATA_PRODUCT',
      properties: {
        name: 'Pet of the Week Campaign',
        description: 'This campaign includes Pet of the Week data.',
        externalUrl: 'https://github.com/datahub-project/datahub',
        numAssets: 3,
        customProperties: [
          { key: 'version', value: '2.0', associatedUrn: PRODUCT },
          { key: 'classification', value: 'pii', associatedUrn: PRODUCT },
        ],
        createdOn: { time: 1_700_000_000_000, actor: { urn: SYSTEM_ACTOR.urn } },
      },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:jdoe' }, type: 'BUSINESS_OWNER' }] },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:awesome' }, associatedUrn: PRODUCT }] },
      glossaryTerms: { terms: [{ term: { urn: 'urn:li:glossaryTerm:ClientsAndAccounts.AccountBalance' } }] },
      domain: { domain: { urn: 'urn:li:domain:12345' } },
      institutionalMemory: null,
      // The ML feature table is not stored: only the two containers are found.
      entities: { total: 2 },
      all: {
        start: 0,
        count: 2,
        total: 2,
        searchResults: [
          { entity: { urn: 'urn:li:container:DATABASE', type: 'CONTAINER' } },
          { entity: { urn: 'urn:li:container:SCHEMA', type: 'CONTAINER' } },
        ],
      },
    });
  });

  it('listDataProductAssets pages and searches the assets; a product without assets lists none; the list finds products', async () => {
    const { query } = await products();
    const data = await query(`{
      page: listDataProductAssets(urn: "${PRODUCT}", input: { query: "*", start: 1, count: 1 }) { start count total searchResults { entity { urn } } }
      words: listDataProductAssets(urn: "${PRODUCT}", input: { query: "schema" }) { total searchResults { entity { urn } } }
      bare: dataProduct(urn: "urn:li:dataProduct:bare") { properties { name numAssets customProperties { key } } entities { start count total } }
      absent: dataProduct(urn: "urn:li:dataProduct:nothing") { urn }
      list: searchAcrossEntities(input: { types: [DATA_PRODUCT], query: "*", start: 0, count: 10 }) {
        searchResults { entity { ... on DataProduct { urn properties { name numAssets } domain { domain { urn } } } } }
      }
    }`);
    expect(data.page).toEqual({ start: 1, count: 1, total: 2, searchResults: [{ entity: { urn: 'urn:li:container:SCHEMA' } }] });
    expect(data.words).toEqual({ total: 1, searchResults: [{ entity: { urn: 'urn:li:container:SCHEMA' } }] });
    expect(data.bare).toEqual({
      properties: { name: 'bare', numAssets: 0, customProperties: [] },
      entities: { start: 0, count: 10, total: 0 },
    });
    expect(data.absent).toBeNull();
    expect(data.list.searchResults).toEqual([
      { entity: { urn: 'urn:li:dataProduct:bare', properties: { name: 'bare', numAssets: 0 }, domain: null } },
      {
        entity: {
          urn: PRODUCT,
          properties: { name: 'Pet of the Week Campaign', numAssets: 3 },
          domain: { domain: { urn: 'urn:li:domain:12345' } },
        },
      },
    ]);
  });
});
