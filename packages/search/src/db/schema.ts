import { defineTable } from '@mds/db';

// The search index's plain tables, described once for both dialects (@mds/db's schema factory). The code speaks
// plain SQL through the storage port (src/sql-index.ts, src/dialects.ts); drizzle-kit generates each dialect's
// migrations from the tables exported at the end (drizzle.sqlite.config.ts, drizzle.postgres.config.ts), and
// test/schema.test.ts checks both migrations folders create exactly these tables. Text compares and sorts bytewise
// (`COLLATE "C"` on PostgreSQL), as on SQLite; `text`, not varchar(n), since SQLite does not enforce lengths either
// (its 0000_search.sql declares varchar(n), the same affinity).
//
// Not described here: `search_text`, the text of each document, which the dialects cannot share. On SQLite it is an
// FTS5 virtual table (BM25), on PostgreSQL a table of a `tsvector` under a GIN index; neither a virtual table, a
// tsvector nor a GIN index is something drizzle's builders produce for both. Its migrations stay hand-written in each
// folder, and the test checks only that it exists (`handWritten`).

/** One document per entity; `id` is what `search_term` and `search_text` refer to. */
export const searchDocument = defineTable('search_document', {
  columns: {
    id: { type: 'bigint', identity: true },
    urn: { type: 'text', bytewise: true },
    entity_type: { type: 'text', bytewise: true },
    /** 1 when soft-deleted (`status.removed`), else 0. */
    removed: { type: 'integer' },
    name: { type: 'text', bytewise: true },
    description: { type: 'text', bytewise: true },
    platform: { type: 'text', bytewise: true, nullable: true },
    origin: { type: 'text', bytewise: true, nullable: true },
    /** JSON. */
    browse_paths: { type: 'text' },
  },
  primaryKey: ['id'],
  indexes: [
    { name: 'search_document_urn', on: ['urn'], unique: true },
    { name: 'search_document_type_urn', on: ['entity_type', 'removed', 'urn'] },
    { name: 'search_document_type_facets', on: ['entity_type', 'removed', 'platform', 'origin'] },
  ],
});

/** Each distinct (field, value) a document has for exact filters and facets, numbered once. */
export const searchValue = defineTable('search_value', {
  columns: {
    vid: { type: 'bigint', identity: true },
    field: { type: 'text', bytewise: true },
    value: { type: 'text', bytewise: true },
  },
  primaryKey: ['vid'],
  // Unique by md5 on PostgreSQL: a B-tree entry cannot hold a value of several kilobytes (a long custom property).
  indexes: [{ name: 'search_value_field_value', on: ['field', { md5: 'value' }], unique: true }],
});

/** Which document has which value: (document id, value id). */
export const searchTerm = defineTable('search_term', {
  columns: {
    id: { type: 'bigint' },
    vid: { type: 'bigint' },
  },
  primaryKey: ['id', 'vid'],
  indexes: [{ name: 'search_term_vid', on: ['vid', 'id'] }],
  withoutRowid: true,
});

/**
 * The rows of `search_term` whose field is one of the facet fields (`search_facet_field`), apart: a document has a few
 * of them among dozens of terms (every field path, upstream, id…), and counting a facet reads only these.
 */
export const searchFacet = defineTable('search_facet', {
  columns: {
    id: { type: 'bigint' },
    vid: { type: 'bigint' },
  },
  primaryKey: ['id', 'vid'],
  withoutRowid: true,
});

/** The term fields whose rows `search_facet` holds: the set it was filled for, compared with the code's at each start. */
export const searchFacetField = defineTable('search_facet_field', {
  columns: {
    field: { type: 'text', bytewise: true },
  },
  primaryKey: ['field'],
});

export const SEARCH_SCHEMA = [searchDocument, searchValue, searchTerm, searchFacet, searchFacetField] as const;

/** The tables of the migrations written by hand for each dialect (see above). */
export const HAND_WRITTEN_TABLES = ['search_text'] as const;

// What drizzle-kit reads: it takes the tables among a schema file's exports, each config those of its dialect.
export const { sqlite: searchDocumentSqlite, postgres: searchDocumentPostgres } = searchDocument;
export const { sqlite: searchValueSqlite, postgres: searchValuePostgres } = searchValue;
export const { sqlite: searchTermSqlite, postgres: searchTermPostgres } = searchTerm;
export const { sqlite: searchFacetSqlite, postgres: searchFacetPostgres } = searchFacet;
export const { sqlite: searchFacetFieldSqlite, postgres: searchFacetFieldPostgres } = searchFacetField;
