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

/** A dataset page's read: properties, tags, owners and its schema (DataHub's UI asks much the same). */
export const DATASET = `query dataset($urn: String!) {
  dataset(urn: $urn) {
    urn type name
    platform { urn name }
    properties { name description customProperties { key value } }
    tags { tags { tag { urn } associatedUrn } }
    ownership { owners { owner { ... on CorpUser { urn username } } type } }
    schemaMetadata { name platformUrn version hash fields { fieldPath nativeDataType type nullable description } }
  }
}`;

/** A page of datasets as a search page shows them, with the facets beside it. */
export const DATASET_SEARCH = `query search($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) {
    start count total
    searchResults { entity { urn type ... on Dataset { name properties { name description } tags { tags { tag { urn } } } ownership { owners { owner { ... on CorpUser { urn } } } } } } }
    facets { field displayName aggregations { value count } }
  }
}`;

/**
 * What DataHub's UI asks for impact analysis (search.graphql's searchAcrossLineage, its fragments cut to the fields
 * every entity has): a page of the entities downstream, each with its degree and paths, and the facets.
 */
export const LINEAGE_SEARCH = `query searchAcrossLineage($input: SearchAcrossLineageInput!) {
  searchAcrossLineage(input: $input) {
    start count total
    searchResults { entity { urn type } matchedFields { name value } insights { text icon } paths { path { urn type } } degree }
    facets { field displayName aggregations { value count } }
    lineageSearchPath
  }
}`;
