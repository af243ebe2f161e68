import { graphql } from './api';

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
  ... on DataJob { properties { name } lastIngested }`;

interface RawEntity {
  urn: string;
  type: string;
  name?: string;
  properties?: { name?: string } | null;
  platform?: { name: string } | null;
  lastIngested?: number | null;
}

const toRow = (e: RawEntity): EntityRow => ({
  urn: e.urn,
  type: e.type,
  name: e.name ?? e.properties?.name ?? e.urn,
  platform: e.platform?.name,
  lastIngested: e.lastIngested ?? undefined,
});

/** How many entities `overview` looks at for the most recently ingested (search sorts by name or urn only). */
export const RECENT_WINDOW = 1000;

const OVERVIEW = `query consoleOverview($count: Int!) {
  searchAcrossEntities(input: { query: "*", count: $count }) {
    total
    facets { field aggregations { value count entity { urn ... on DataPlatform { name } } } }
    searchResults { entity { ${ROW_FIELDS} } }
  }
}`;

/** Counts per entity type and platform (search facets over everything), and the most recently ingested entities. */
export async function overview(recent: number) {
  type Answer = {
    searchAcrossEntities: {
      total: number;
      facets: { field: string; aggregations: { value: string; count: number; entity: { name?: string } | null }[] }[];
      searchResults: { entity: RawEntity }[];
    };
  };
  const { searchAcrossEntities: found } = await graphql<Answer>(OVERVIEW, { count: RECENT_WINDOW });
  const facet = (field: string): Facet[] =>
    (found.facets.find((f) => f.field === field)?.aggregations ?? [])
      .filter((a) => a.count > 0)
      .map((a) => ({ value: a.value, label: a.entity?.name ?? a.value, count: a.count }));
  const rows = found.searchResults.map((r) => toRow(r.entity)).filter((r) => r.lastIngested !== undefined);
  rows.sort((a, b) => b.lastIngested! - a.lastIngested! || a.urn.localeCompare(b.urn));
  return { total: found.total, byType: facet('_entityType'), byPlatform: facet('platform'), recent: rows.slice(0, recent), looked: found.searchResults.length };
}

const SEARCH = `query consoleSearch($query: String!, $count: Int!) {
  searchAcrossEntities(input: { query: $query, count: $count }) { total searchResults { entity { ${ROW_FIELDS} } } }
}`;

/** Full-text search over every entity type. */
export async function searchEntities(query: string, count: number): Promise<{ total: number; rows: EntityRow[] }> {
  const { searchAcrossEntities: found } = await graphql<{ searchAcrossEntities: { total: number; searchResults: { entity: RawEntity }[] } }>(SEARCH, { query, count });
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
