import { graphql, request } from './api';

/** An entity as the catalog lists it. */
export interface EntityRow {
  urn: string;
  type: string;
  name: string;
  platform: string | undefined;
  lastIngested: number | undefined;
}

export interface Facet {
  value: string;
  label: string;
  count: number;
}

// The fields every listed entity type answers (the asset types share `lastIngested`, name lives in properties).
const ROW_FIELDS = `urn type
  ... on Dataset { name platform { name } lastIngested }
  ... on Dashboard { properties { name } platform { name } lastIngested }
  ... on Chart { properties { name } platform { name } lastIngested }
  ... on DataFlow { properties { name } lastIngested }
  ... on DataJob { properties { name } lastIngested }
  ... on Tag { properties { name } }
  ... on CorpUser { username }`;

interface RawEntity {
  urn: string;
  type: string;
  name?: string;
  username?: string;
  properties?: { name?: string } | null;
  platform?: { name: string } | null;
  lastIngested?: number | null;
}

const toRow = (e: RawEntity): EntityRow => ({
  urn: e.urn,
  type: e.type,
  name: e.name ?? e.properties?.name ?? e.username ?? e.urn,
  platform: e.platform?.name,
  lastIngested: e.lastIngested ?? undefined,
});

const FACETS = `query consoleFacets {
  searchAcrossEntities(input: { query: "*", count: 0 }) {
    total
    facets { field aggregations { value count entity { urn ... on DataPlatform { name } } } }
  }
}`;

/** Counts per entity type and platform: search facets over every entity. */
export async function facetCounts() {
  type Answer = {
    searchAcrossEntities: {
      total: number;
      facets: { field: string; aggregations: { value: string; count: number; entity: { name?: string } | null }[] }[];
    };
  };
  const { searchAcrossEntities: found } = await graphql<Answer>(FACETS);
  const facet = (field: string): Facet[] =>
    (found.facets.find((f) => f.field === field)?.aggregations ?? [])
      .filter((a) => a.count > 0)
      .map((a) => ({ value: a.value, label: a.entity?.name ?? a.value, count: a.count }));
  return { total: found.total, byType: facet('_entityType'), byPlatform: facet('platform') };
}

const ENTITIES = `query consoleEntities($urns: [String!]!) { entities(urns: $urns) { ${ROW_FIELDS} } }`;

/**
 * The entities written most recently, newest first: mds's `GET /mds/v1/recent-entities` (search cannot sort by time),
 * then their names and platforms from GraphQL `entities`. `lastWritten` is when their latest aspect was written.
 */
export async function recentEntities(count: number): Promise<(EntityRow & { lastWritten: number })[]> {
  const { entities: recent } = (await request('GET', `/mds/v1/recent-entities?count=${count}`)) as {
    entities: { urn: string; lastWritten: number }[];
  };
  if (recent.length === 0) return [];
  const { entities } = await graphql<{ entities: (RawEntity | null)[] }>(ENTITIES, { urns: recent.map((r) => r.urn) });
  const byUrn = new Map(entities.filter((e) => e !== null).map((e) => [e.urn, toRow(e)]));
  return recent.map(({ urn, lastWritten }) => ({
    ...(byUrn.get(urn) ?? { urn, type: '', name: urn, platform: undefined, lastIngested: undefined }),
    lastWritten,
  }));
}

const SEARCH = `query consoleSearch($query: String!, $count: Int!) {
  searchAcrossEntities(input: { query: $query, count: $count }) { total searchResults { entity { ${ROW_FIELDS} } } }
}`;

/** Full-text search over every entity type. */
export async function searchEntities(query: string, count: number): Promise<{ total: number; rows: EntityRow[] }> {
  const { searchAcrossEntities: found } = await graphql<{
    searchAcrossEntities: { total: number; searchResults: { entity: RawEntity }[] };
  }>(SEARCH, { query, count });
  return { total: found.total, rows: found.searchResults.map((r) => toRow(r.entity)) };
}

/** The query the GraphQL view of an entity runs; the same text is shown, to paste into GraphiQL. */
export const ENTITY_QUERY = `query consoleEntity($urn: String!) {
  entity(urn: $urn) { ${ROW_FIELDS} }
}`;

/** The registry name of an entity (`urn:li:dataset:(…)` → `dataset`), as the OpenAPI paths spell it. */
export const entityNameOf = (urn: string): string => urn.split(':')[2] ?? '';

/** The OpenAPI v3 read of one entity. */
export const openApiPath = (urn: string): string => `/openapi/v3/entity/${entityNameOf(urn)}/${encodeURIComponent(urn)}`;
