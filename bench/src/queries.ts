/** The GraphQL operations the scenarios send, identical for mds and the ceiling. */

export const CREATE_TAG = 'mutation createTag($input: CreateTagInput!) { createTag(input: $input) }';

export const TAG = 'query tag($urn: String!) { tag(urn: $urn) { urn type properties { name description colorHex } } }';

/** What DataHub's UI asks when it searches tags (spec 5). */
export const SEARCH = `query search($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    start count total
    searchResults { entity { urn type ... on Tag { properties { name description colorHex } } } }
  }
}`;

/** Words the fixture tags' descriptions draw from: a search for one matches about 1/WORDS.length of the tags. */
export const WORDS = ['customer', 'finance', 'pii', 'marketing', 'sales', 'gold', 'silver', 'bronze', 'legacy', 'sensitive'] as const;

export const graphqlBody = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });
