import type { SqlDialect, SqlExecutor } from '@mds/db';
import type { SearchDocument } from './document';

/** A query's words, each a prefix to find (lowercase, punctuation dropped); `all` for blank or `*`, `none` for no word. */
export type QueryWords = readonly string[] | 'all' | 'none';

// A word starts with a letter, digit or private-use character, which FTS5's unicode61 tokenizer always keeps, so each
// word yields at least one token; marks may follow (they are part of the word for diacritic folding), and so may `_`:
// `table_4242` stays one word, a phrase of its tokens, rather than two prefixes of which `table` matches every table.
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{M}_]*/gu;

export function queryWords(input: string): QueryWords {
  const trimmed = input.trim();
  if (trimmed === '' || trimmed === '*') return 'all';
  return trimmed.toLowerCase().match(WORD) ?? 'none';
}

/**
 * The tokens of a text as FTS5's `unicode61 remove_diacritics 2` makes them: runs of letters, digits and marks,
 * lowercase, the marks (diacritics) removed. PostgreSQL indexes these, joined by spaces, so that both dialects find
 * the same documents for the same words.
 */
export const tokens = (text: string): string[] =>
  (text.normalize('NFD').toLowerCase().match(/[\p{L}\p{N}\p{Co}\p{M}]+/gu) ?? []).map((t) => t.replace(/\p{M}/gu, '')).filter((t) => t !== '');

/** What differs between the dialects: full-text search, and a few spellings. Everything else is one code path. */
export interface SearchDialect {
  /** `search_text` joined to `search_document d`. */
  readonly textFrom: string;
  /** The condition that a document has every word (as a prefix), in any column or (`nameOnly`) in its name. */
  matches(words: readonly string[], nameOnly?: boolean): { sql: string; params: unknown[] };
  /** An ORDER BY term, the best match first: a word in the name weighs over one in the description, then the rest. */
  rank(words: readonly string[]): { sql: string; params: unknown[] };
  /** Extra columns of a ranked query, read by `matchedFields`. */
  readonly hitColumns: string;
  /** Which of the name and description hold a word of the query. */
  matchedFields(row: { name: string; description: string; nameHit?: string; descriptionHit?: string }, words: readonly string[]): { name: string; value: string }[];
  /** Inserts a new document's row and its text; answers its id, one never used before. */
  insertDocument(tx: SqlExecutor, doc: SearchDocument, columns: readonly unknown[]): Promise<number>;
  replaceText(tx: SqlExecutor, id: number, doc: SearchDocument): Promise<void>;
  removeText(tx: SqlExecutor, id: number): Promise<void>;
  /** `INSERT INTO into rows` skipping rows that conflict with a unique key, never failing half done. */
  insertIgnoring(into: string, rows: string): string;
  /** Whether a `search_value v` holds the (field, value) of `wanted` (column1, column2), looked up by its unique key. */
  readonly sameValue: string;
  /** Whether `haystack` contains `needle`, as an SQL expression. */
  contains(haystack: string, needle: string): string;
  /** A join the planner must take in the order written (from the matching documents to their terms). */
  readonly joinInOrder: string;
}

const DOCUMENT_COLUMNS = 'urn, entity_type, removed, name, description, platform, origin, browse_paths';

const SQLITE_MARK = 'char(1)';

/** SQLite: an FTS5 table ranked by BM25; ids from the AUTOINCREMENT sequence. */
const sqlite: SearchDialect = {
  textFrom: 'search_text JOIN search_document d ON d.id = search_text.rowid',
  matches(words, nameOnly = false) {
    // Each word quoted, so `"`, `*`, `:`, `NEAR(`, `AND`/`OR` are never syntax.
    const fts = words.map((word) => `"${word}"*`).join(' ');
    return { sql: 'search_text MATCH ?', params: [nameOnly ? `name : (${fts})` : fts] };
  },
  rank: () => ({ sql: 'bm25(search_text, 10.0, 3.0, 1.0)', params: [] }),
  // highlight() marks matched tokens: a field whose highlighted text differs from its own text is a matched field.
  hitColumns: `, highlight(search_text, 0, ${SQLITE_MARK}, '') AS nameHit, highlight(search_text, 1, ${SQLITE_MARK}, '') AS descriptionHit`,
  matchedFields: (row) => [
    ...(row.nameHit !== undefined && row.nameHit !== row.name ? [{ name: 'name', value: row.name }] : []),
    ...(row.descriptionHit !== undefined && row.descriptionHit !== row.description ? [{ name: 'description', value: row.description }] : []),
  ],
  async insertDocument(tx, doc, columns) {
    // The next id of the AUTOINCREMENT sequence, read under the write lock the caller's transaction holds (not
    // RETURNING, which opens a statement journal, at which FTS5 writes its pending index out: indexing 2× dearer).
    // Never an id used before, so rows a lost document left behind cannot collide.
    const last = await tx.get<{ seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'search_document'`);
    const id = Number(last?.seq ?? 0) + 1;
    await tx.run(`INSERT INTO search_document (id, ${DOCUMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [id, doc.urn, ...columns]);
    await sqlite.replaceText(tx, id, doc);
    return id;
  },
  async replaceText(tx, id, doc) {
    await sqlite.removeText(tx, id);
    await tx.run('INSERT INTO search_text (rowid, name, description, text) VALUES (?, ?, ?, ?)', [id, doc.name, doc.description, doc.text]);
  },
  async removeText(tx, id) {
    await tx.run('DELETE FROM search_text WHERE rowid = ?', [id]);
  },

  // OR IGNORE rather than ON CONFLICT: no statement journal (see insertDocument).
  insertIgnoring: (into, rows) => `INSERT OR IGNORE INTO ${into} ${rows}`,
  sameValue: 'v.field = wanted.column1 AND v.value = wanted.column2',
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  joinInOrder: 'CROSS JOIN',
};

/** A tsquery of every word as a prefix (a word of several tokens a phrase of them, the last a prefix); `A`: in the name. */
const tsquery = (words: readonly string[], weight = '') =>
  words
    .map((word) => tokens(word))
    .filter((parts) => parts.length > 0)
    .map((parts) => parts.map((part, i) => (i === parts.length - 1 ? `${part}:*${weight}` : weight ? `${part}:${weight}` : part)).join(' <-> '))
    .join(' & ');

/** The tokens of a document's name, description and other text, each joined by spaces for to_tsvector. */
const textTokens = (doc: SearchDocument) => [doc.name, doc.description, doc.text].map((text) => tokens(text).join(' '));
const WEIGHTED_WORDS = `setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'B') || setweight(to_tsvector('simple', ?), 'C')`;

/** Whether `text` holds a word of the query, as the tsquery would find it there. */
const holdsWord = (text: string, words: readonly string[]) => {
  const have = tokens(text);
  return words.some((word) => {
    const parts = tokens(word);
    return have.some((_, start) => parts.length > 0 && parts.every((part, i) => (i === parts.length - 1 ? have[start + i]?.startsWith(part) : have[start + i] === part)));
  });
};

/**
 * PostgreSQL: a tsvector of the tokens (the same as SQLite's, made here) under a GIN index, weighted A for the name,
 * B for the description and C for the rest, ranked by ts_rank; ids from an identity column.
 */
const postgres: SearchDialect = {
  textFrom: 'search_text JOIN search_document d ON d.id = search_text.id',
  matches: (words, nameOnly = false) => ({ sql: `search_text.words @@ to_tsquery('simple', ?)`, params: [tsquery(words, nameOnly ? 'A' : '')] }),
  rank: (words) => ({ sql: `ts_rank(search_text.words, to_tsquery('simple', ?)) DESC`, params: [tsquery(words)] }),
  hitColumns: '',
  matchedFields: (row, words) => [
    ...(holdsWord(row.name, words) ? [{ name: 'name', value: row.name }] : []),
    ...(holdsWord(row.description, words) ? [{ name: 'description', value: row.description }] : []),
  ],
  // The document and its text in one statement: each is a round trip to the server.
  async insertDocument(tx, doc, columns) {
    const row = await tx.get<{ id: number }>(
      `WITH d AS (INSERT INTO search_document (${DOCUMENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id)
       INSERT INTO search_text (id, words) SELECT d.id, ${WEIGHTED_WORDS} FROM d RETURNING id`,
      [doc.urn, ...columns, ...textTokens(doc)],
    );
    return Number(row!.id);
  },
  async replaceText(tx, id, doc) {
    await tx.run(`UPDATE search_text SET words = ${WEIGHTED_WORDS} WHERE id = ?`, [...textTokens(doc), id]);
  },
  async removeText(tx, id) {
    await tx.run('DELETE FROM search_text WHERE id = ?', [id]);
  },


  insertIgnoring: (into, rows) => `INSERT INTO ${into} ${rows} ON CONFLICT DO NOTHING`,
  // Values are unique by their md5 there: a B-tree entry cannot hold a long custom property.
  sameValue: 'v.field = wanted.column1 AND md5(v.value) = md5(wanted.column2) AND v.value = wanted.column2',
  contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
  joinInOrder: 'JOIN',
};

export const SEARCH_DIALECTS: Readonly<Record<SqlDialect, SearchDialect>> = { sqlite, postgres };
