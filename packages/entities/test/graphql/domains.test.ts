import { sqliteTestDatabases } from '@mds/db/testing';
import { graphql } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { context, goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const MARKETING = 'urn:li:domain:marketing';
const VIEWS = 'urn:li:dataset:(urn:li:dataPlatform:mysql,information_schema.VIEWS,PROD)';

/** DataHub's domain test file (a domain, a dataset in it), with a chain of two sub-domains under it. */
async function domains() {
  const api = await goldenGraphql(databases, ['test_domains.json']);
  const mcp = (entityUrn: string, aspectName: string, value: unknown) => ({
    proposal: { entityType: 'domain', entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
    place: { action: 'test', path: aspectName },
  });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      mcp('urn:li:domain:emea', 'domainProperties', { name: 'EMEA', parentDomain: MARKETING }),
      mcp('urn:li:domain:france', 'domainProperties', { name: 'France', parentDomain: 'urn:li:domain:emea' }),
      mcp('urn:li:domain:france', 'institutionalMemory', {
        elements: [{ url: 'https://wiki/fr', description: 'Wiki', createStamp: { time: 5, actor: 'urn:li:corpuser:jdoe' } }],
      }),
      mcp('urn:li:domain:keyonly', 'ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'BUSINESS_OWNER' }] }),
    ],
    { batch: true },
  );
  return api;
}

describe("Domains, as DataHub's DomainMapper and domain resolvers answer them", () => {
  it("a domain's page (getDomain's fields): id from the key, properties, parents nearest first, its entities", async () => {
    const { query } = await domains();
    const data = await query(
      `query getDomain($urn: String!) {
        domain(urn: $urn) {
          urn id type
          properties { name description }
          parentDomains { count domains { urn type ... on Domain { properties { name } } } }
          institutionalMemory { elements { url description created { actor time } } }
          entities(input: { start: 0, count: 10 }) { start count total searchResults { entity { urn type } } }
        }
      }`,
      { urn: 'urn:li:domain:france' },
    );
    expect(data.domain).toEqual({
      urn: 'urn:li:domain:france',
      id: 'france',
      type: 'DOMAIN',
      properties: { name: 'France', description: null },
      parentDomains: {
        count: 2,
        domains: [
          { urn: 'urn:li:domain:emea', type: 'DOMAIN', properties: { name: 'EMEA' } },
          { urn: MARKETING, type: 'DOMAIN', properties: { name: 'Sales' } },
        ],
      },
      institutionalMemory: {
        elements: [{ url: 'https://wiki/fr', description: 'Wiki', created: { actor: 'urn:li:corpuser:jdoe', time: 5 } }],
      },
      entities: { start: 0, count: 0, total: 0, searchResults: [] },
    });
    const marketing = await query(`{ domain(urn: "${MARKETING}") {
      properties { name description createdOn { time actor { urn } } } parentDomains { count domains { urn } } entities { start count total searchResults { entity { urn } } } } }`);
    expect(marketing.domain).toEqual({
      properties: {
        name: 'Sales',
        description: 'My custom domain',
        createdOn: { time: 1_700_000_000_000, actor: { urn: SYSTEM_ACTOR.urn } },
      },
      parentDomains: { count: 0, domains: [] },
      entities: { start: 0, count: 1, total: 1, searchResults: [{ entity: { urn: VIEWS } }] },
    });
  });

  it('a domain with only its key has no properties; absent domains and other types answer null; a bad urn is refused', async () => {
    const { query, schema } = await domains();
    expect(
      await query(`{
        keyonly: domain(urn: "urn:li:domain:keyonly") { id properties { name } ownership { owners { owner { ... on CorpUser { urn } } type } } }
        absent: domain(urn: "urn:li:domain:nothing") { id }
        other: domain(urn: "${VIEWS}") { id }
      }`),
    ).toEqual({
      keyonly: {
        id: 'keyonly',
        properties: null,
        ownership: { owners: [{ owner: { urn: 'urn:li:corpuser:jdoe' }, type: 'BUSINESS_OWNER' }] },
      },
      absent: null,
      other: null,
    });
    const refused = await graphql({ schema, source: '{ domain(urn: "domain") { id } }', contextValue: context });
    expect(refused.errors?.[0]?.message).toBe('Invalid urn: domain');
  });

  it("listDomains (the UI's ListDomain fields) answers root domains or the children of parentDomain", async () => {
    const { query } = await domains();
    const data = await query(`{
      roots: listDomains(input: { start: 0, count: 1000 }) { start count total domains { urn id properties { name } parentDomains { count } } }
      children: listDomains(input: { start: 0, count: 1000, parentDomain: "${MARKETING}" }) { total domains { urn parentDomains { domains { urn } } } }
    }`);
    expect(data.roots.domains.map((d: any) => d.urn).sort()).toEqual([MARKETING, 'urn:li:domain:keyonly'].sort());
    expect(data.roots.domains.find((d: any) => d.urn === MARKETING)).toEqual({
      urn: MARKETING,
      id: 'marketing',
      properties: { name: 'Sales' },
      parentDomains: { count: 0 },
    });
    expect(data.children).toEqual({ total: 1, domains: [{ urn: 'urn:li:domain:emea', parentDomains: { domains: [{ urn: MARKETING }] } }] });
  });
});
