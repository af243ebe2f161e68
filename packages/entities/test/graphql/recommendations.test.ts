import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { upsert } from './edit-support';
import { schemaOf } from './schema';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };
const dataset = (name: string, platform = 'hive') => `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';
const GONE = 'urn:li:tag:gone';
const NEVER_STORED = 'urn:li:tag:never';
const TERM = 'urn:li:glossaryTerm:revenue';
const SALES = 'urn:li:domain:sales';

// The UI's listRecommendations selection (recommendations.graphql), without its entity preview fragment.
const LIST = `query listRecommendations($input: ListRecommendationsInput!) { listRecommendations(input: $input) { modules {
  title moduleId renderType content { value entity { urn type }
  params { searchParams { types query filters { field values } } entityProfileParams { urn } contentParams { count } } } } } }`;

async function setup() {
  const entities = await createEntities({ db: await databases.open() });
  const tags = (...urns: string[]) => ({ tags: urns.map((tag) => ({ tag })) });
  await entities.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(dataset('a'), 'globalTags', tags(PII, GOLD, GONE, NEVER_STORED)),
      upsert(dataset('b'), 'globalTags', tags(PII)),
      upsert(dataset('c', 'kafka'), 'globalTags', tags(PII, GONE)),
      upsert(dataset('a'), 'glossaryTerms', { terms: [{ urn: TERM }], auditStamp: { time: 1, actor: 'urn:li:corpuser:x' } }),
      upsert(dataset('b'), 'domains', { domains: [SALES] }),
      upsert(PII, 'tagProperties', { name: 'pii' }),
      upsert(GOLD, 'tagProperties', { name: 'gold' }),
      upsert(GONE, 'tagProperties', { name: 'gone' }),
      upsert(GONE, 'status', { removed: true }),
      upsert(TERM, 'glossaryTermInfo', { definition: 'Money in', termSource: 'INTERNAL' }),
      upsert(SALES, 'domainProperties', { name: 'Sales' }),
      // Only a platform with a logo is recommended (DataHub's TopPlatformsSource).
      upsert('urn:li:dataPlatform:hive', 'dataPlatformInfo', {
        name: 'hive',
        type: 'FILE_SYSTEM',
        datasetNameDelimiter: '.',
        logoUrl: '/assets/platforms/hivelogo.png',
      }),
      upsert('urn:li:dataPlatform:kafka', 'dataPlatformInfo', { name: 'kafka', type: 'MESSAGE_BROKER', datasetNameDelimiter: '.' }),
    ],
    { batch: true },
  );
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
  return async (input: Record<string, unknown>) => {
    const result = (await graphql({ schema, source: LIST, variableValues: { input }, contextValue: context })) as ExecutionResult<any>;
    expect(result.errors).toBeUndefined();
    return result.data!.listRecommendations.modules as { moduleId: string; title: string; renderType: string; content: any[] }[];
  };
}

describe("listRecommendations, as DataHub's RecommendationsService and its aggregation sources answer it", () => {
  it("the home page: platforms with a logo, domains, top tags and terms, each value a search for it, in DataHub's order", async () => {
    const list = await setup();
    const modules = await list({ userUrn: 'urn:li:corpuser:datahub', requestContext: { scenario: 'HOME' }, limit: 10 });
    expect(modules.map((m) => [m.moduleId, m.title, m.renderType])).toEqual([
      ['Platforms', 'Platforms', 'PLATFORM_SEARCH_LIST'],
      ['Domains', 'Domains', 'DOMAIN_SEARCH_LIST'],
      ['TopTags', 'Top Tags', 'TAG_SEARCH_LIST'],
      ['TopTerms', 'Top Glossary Terms', 'GLOSSARY_TERM_SEARCH_LIST'],
    ]);
    const platforms = modules[0]!.content;
    expect(platforms).toEqual([
      {
        value: 'urn:li:dataPlatform:hive',
        entity: { urn: 'urn:li:dataPlatform:hive', type: 'DATA_PLATFORM' },
        params: {
          searchParams: { types: null, query: '', filters: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] },
          entityProfileParams: null,
          contentParams: { count: 2 },
        },
      },
    ]);
    // Most used first; a soft-deleted tag and one never stored are left out.
    expect(modules[2]!.content.map((c) => [c.value, c.params.contentParams.count])).toEqual([
      [PII, 3],
      [GOLD, 1],
    ]);
    expect(modules[1]!.content.map((c) => c.entity)).toEqual([{ urn: SALES, type: 'DOMAIN' }]);
    expect(modules[3]!.content.map((c) => c.params.searchParams.filters)).toEqual([[{ field: 'glossaryTerms', values: [TERM] }]]);
  });

  it('search results get tags and terms; the search bar nothing (its source reads usage events); limit cuts modules', async () => {
    const list = await setup();
    const results = await list({
      userUrn: 'u',
      requestContext: { scenario: 'SEARCH_RESULTS', searchRequestContext: { query: 'x', filters: [] } },
    });
    expect(results.map((m) => m.moduleId)).toEqual(['TopTags', 'TopTerms']);
    expect(await list({ userUrn: 'u', requestContext: { scenario: 'SEARCH_BAR' }, limit: 1 })).toEqual([]);
    expect((await list({ userUrn: 'u', requestContext: { scenario: 'HOME' }, limit: 2 })).map((m) => m.moduleId)).toEqual([
      'Platforms',
      'Domains',
    ]);
  });
});
