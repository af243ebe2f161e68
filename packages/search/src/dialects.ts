import { deleteRows, writeRows, type SqlDialect, type SqlExecutor } from '@mds/db';
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
  (
    text
      .normalize('NFD')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{Co}\p{M}]+/gu) ?? []
  )
    .map((t) => t.replace(/\p{M}/gu, ''))
    .filter((t) => t !== '');

/**
 * The weights of a document's text, as DataHub's boosts rank them: the name and the words of fields boosted 8 and
 * over (10), those boosted 2-5 (4), the description and the other text (1), words of fields boosted under 1 (0.2).
 */
const WEIGHTS = { top: 10, high: 4, normal: 1, low: 0.2 } as const;

/** The words of a document in each weight, the name first among the top ones. */
const weighed = (doc: SearchDocument) => ({
  top: doc.boosted?.top ? `${doc.name} ${doc.boosted.top}` : doc.name,
  high: doc.boosted?.high ?? '',
  normal: doc.description && doc.text ? `${doc.description} ${doc.text}` : doc.description || doc.text,
  low: doc.boosted?.low ?? '',
});

/** What differs between the dialects: full-text search, and a few spellings. Everything else is one code path. */
export interface SearchDialect {
  /** `search_text` joined to `search_document d`. */
  readonly textFrom: string;
  /**
   * The condition that a document has every word (as a prefix), in any of its text or (`nameOnly`) in its name and
   * the text weighing as much.
   */
  matches(words: readonly string[], nameOnly?: boolean): { sql: string; params: unknown[] };
  /** An ORDER BY term, the best match first, each word weighing as its field does (WEIGHTS). */
  rank(words: readonly string[]): { sql: string; params: unknown[] };
  /** Extra columns of a ranked query, read by `matchedFields`. */
  readonly hitColumns: string;
  /** Which of the name and description hold a word of the query. */
  matchedFields(
    row: { name: string; description: string; nameHit?: string; descriptionHit?: string },
    words: readonly string[],
  ): { name: string; value: string }[];
  /** Inserts new documents' rows and their text; answers their ids, in order, ids never used before. */
  insertDocuments(tx: SqlExecutor, docs: readonly SearchDocument[]): Promise<number[]>;
  removeTexts(tx: SqlExecutor, ids: readonly number[]): Promise<void>;
  /** `INSERT INTO into rows` skipping rows that conflict with a unique key, never failing half done. */
  insertIgnoring(into: string, rows: string): string;
  /** Whether a `search_value v` holds the (field, value) of `wanted` (column2, column3), looked up by its unique key. */
  readonly sameValue: string;
  /**
   * The ids of one parameter, as a row source `ids` whose column `value` is each id: a match set found once, read
   * again by id. The parameter is what `idsAggregate` gives (several of them joined by `joinIds`).
   */
  readonly idsOf: string;
  /** An aggregate of `d.id` over a group, as the parameter of `idsOf`. */
  readonly idsAggregate: string;
  /** Several values of `idsAggregate` as one. */
  joinIds(parts: readonly unknown[]): unknown;
  /** Whether `haystack` contains `needle`, as an SQL expression. */
  contains(haystack: string, needle: string): string;
  /** A join the planner must take in the order written (from the matching documents to their terms). */
  readonly joinInOrder: string;
  /** A text column's value as a number, NULL where it is not one (so it matches no comparison). */
  asNumber(column: string): string;
}

const DOCUMENT_COLUMNS = ['urn', 'entity_type', 'removed', 'name', 'description', 'platform', 'origin', 'browse_paths'];
/** A document's values of DOCUMENT_COLUMNS after its urn. */
const documentColumns = (doc: SearchDocument) => [
  doc.entityType,
  doc.removed ? 1 : 0,
  doc.name,
  doc.description,
  doc.platform,
  doc.origin,
  JSON.stringify(doc.browsePaths),
];

const SQLITE_MARK = 'char(1)';

/**
 * SQLite: an FTS5 table ranked by BM25, its columns weighed (the name, the description, the other text at weight 1,
 * then the top, high and low text); ids from the AUTOINCREMENT sequence.
 */
const sqlite: SearchDialect = {
  textFrom: 'search_text JOIN search_document d ON d.id = search_text.rowid',
  matches(words, nameOnly = false) {
    // Each word quoted, so `"`, `*`, `:`, `NEAR(`, `AND`/`OR` are never syntax.
    const fts = words.map((word) => `"${word}"*`).join(' ');
    return { sql: 'search_text MATCH ?', params: [nameOnly ? `{name top} : (${fts})` : fts] };
  },
  rank: () => ({
    sql: `bm25(search_text, ${[WEIGHTS.top, WEIGHTS.normal, WEIGHTS.normal, WEIGHTS.top, WEIGHTS.high, WEIGHTS.low].join(', ')})`,
    params: [],
  }),
  // highlight() marks matched tokens: a field whose highlighted text differs from its own text is a matched field.
  hitColumns: `, highlight(search_text, 0, ${SQLITE_MARK}, '') AS nameHit, highlight(search_text, 1, ${SQLITE_MARK}, '') AS descriptionHit`,
  matchedFields: (row) => [
    ...(row.nameHit !== undefined && row.nameHit !== row.name ? [{ name: 'name', value: row.name }] : []),
    ...(row.descriptionHit !== undefined && row.descriptionHit !== row.description
      ? [{ name: 'description', value: row.description }]
      : []),
  ],
  async insertDocuments(tx, docs) {
    // The next ids of the AUTOINCREMENT sequence, read under the write lock the caller's transaction holds (not
    // RETURNING, which opens a statement journal, at which FTS5 writes its pending index out: indexing 2× dearer).
    // Never ids used before, so rows a lost document left behind cannot collide.
    const last = await tx.get<{ seq: number }>(`SELECT seq FROM sqlite_sequence WHERE name = 'search_document'`);
    const ids = docs.map((_, i) => Number(last?.seq ?? 0) + 1 + i);
    await writeRows(tx, {
      table: 'search_document',
      columns: ['id', ...DOCUMENT_COLUMNS],
      rows: docs.map((doc, i) => [ids[i], doc.urn, ...documentColumns(doc)]),
    });
    await writeRows(tx, {
      table: 'search_text',
      columns: ['rowid', 'name', 'description', 'text', 'top', 'high', 'low'],
      rows: docs.map((doc, i) => [
        ids[i],
        doc.name,
        doc.description,
        doc.text,
        doc.boosted?.top ?? '',
        doc.boosted?.high ?? '',
        doc.boosted?.low ?? '',
      ]),
    });
    return ids;
  },
  removeTexts: (tx, ids) =>
    deleteRows(
      tx,
      { table: 'search_text', columns: ['rowid'] },
      ids.map((id) => [id]),
    ),

  // OR IGNORE rather than ON CONFLICT: no statement journal (see insertDocument).
  insertIgnoring: (into, rows) => `INSERT OR IGNORE INTO ${into} ${rows}`,
  idsOf: 'json_each(?) ids',
  // A JSON array as text, made by SQLite and handed back to it as it came.
  idsAggregate: 'json_group_array(d.id)',
  joinIds: (parts) =>
    parts.length === 1
      ? parts[0]
      : `[${parts
          .map((part) => (part as string).slice(1, -1))
          .filter((inner) => inner !== '')
          .join(',')}]`,
  sameValue: 'v.field = wanted.column2 AND v.value = wanted.column3',
  contains: (haystack, needle) => `instr(${haystack}, ${needle}) > 0`,
  joinInOrder: 'CROSS JOIN',
  // CAST alone reads `12abc` as 12 and `abc` as 0: only text made of a number's characters is cast.
  asNumber: (column) => `(CASE WHEN ${column} <> '' AND ${column} NOT GLOB '*[^0-9.eE+-]*' THEN CAST(${column} AS REAL) END)`,
};

/** A tsquery of every word as a prefix (a word of several tokens a phrase of them, the last a prefix); `A`: in the name. */
const tsquery = (words: readonly string[], weight = '') =>
  words
    .map((word) => tokens(word))
    .filter((parts) => parts.length > 0)
    .map((parts) =>
      parts.map((part, i) => (i === parts.length - 1 ? `${part}:*${weight}` : weight ? `${part}:${weight}` : part)).join(' <-> '),
    )
    .join(' & ');

/** The tokens of a document's text of each weight (top, high, normal, low), each joined by spaces for to_tsvector. */
const textTokens = (doc: SearchDocument) => {
  const text = weighed(doc);
  return [text.top, text.high, text.normal, text.low].map((words) => tokens(words).join(' '));
};
const WEIGHTED_WORDS = (top: string, high: string, normal: string, low: string) =>
  [top, high, normal, low].map((words, i) => `setweight(to_tsvector('simple', ${words}), '${'ABCD'[i]}')`).join(' || ');
/** ts_rank's weights, of D, C, B and A: in the ratios of WEIGHTS. */
const RANK_WEIGHTS = `'{${[WEIGHTS.low, WEIGHTS.normal, WEIGHTS.high, WEIGHTS.top].map((w) => w / WEIGHTS.top).join(', ')}}'`;
const DOCUMENTS_PER_STATEMENT = 500;

/** Whether `text` holds a word of the query, as the tsquery would find it there. */
const holdsWord = (text: string, words: readonly string[]) => {
  const have = tokens(text);
  return words.some((word) => {
    const parts = tokens(word);
    return have.some(
      (_, start) =>
        parts.length > 0 &&
        parts.every((part, i) => (i === parts.length - 1 ? have[start + i]?.startsWith(part) : have[start + i] === part)),
    );
  });
};

/**
 * PostgreSQL: a tsvector of the tokens (the same as SQLite's, made here) under a GIN index, weighted A for the name
 * and the top text, B for the high text, C for the description and the other text, D for the low text, ranked by
 * ts_rank with WEIGHTS; ids from an identity column.
 */
const postgres: SearchDialect = {
  textFrom: 'search_text JOIN search_document d ON d.id = search_text.id',
  matches: (words, nameOnly = false) => ({
    sql: `search_text.words @@ to_tsquery('simple', ?)`,
    params: [tsquery(words, nameOnly ? 'A' : '')],
  }),
  rank: (words) => ({ sql: `ts_rank(${RANK_WEIGHTS}, search_text.words, to_tsquery('simple', ?)) DESC`, params: [tsquery(words)] }),
  hitColumns: '',
  matchedFields: (row, words) => [
    ...(holdsWord(row.name, words) ? [{ name: 'name', value: row.name }] : []),
    ...(holdsWord(row.description, words) ? [{ name: 'description', value: row.description }] : []),
  ],
  // Documents and their text in one statement per 500: each statement is a round trip to the server.
  async insertDocuments(tx, docs) {
    const ids = new Map<string, number>();
    for (let i = 0; i < docs.length; i += DOCUMENTS_PER_STATEMENT) {
      const chunk = docs.slice(i, i + DOCUMENTS_PER_STATEMENT);
      const rows = await tx.all<{ id: number; urn: string }>(
        `WITH input (${DOCUMENT_COLUMNS.join(', ')}, a, b, c, e) AS (VALUES ${chunk.map(() => '(?, ?, CAST(? AS integer), ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}),
         d AS (INSERT INTO search_document (${DOCUMENT_COLUMNS.join(', ')}) SELECT ${DOCUMENT_COLUMNS.join(', ')} FROM input RETURNING id, urn),
         t AS (INSERT INTO search_text (id, words) SELECT d.id, ${WEIGHTED_WORDS('input.a', 'input.b', 'input.c', 'input.e')} FROM d JOIN input ON input.urn = d.urn COLLATE "C")
         SELECT id, urn FROM d`,
        chunk.flatMap((doc) => [doc.urn, ...documentColumns(doc), ...textTokens(doc)]),
      );
      for (const row of rows) ids.set(row.urn, Number(row.id));
    }
    return docs.map((doc) => ids.get(doc.urn)!);
  },
  removeTexts: (tx, ids) =>
    deleteRows(
      tx,
      { table: 'search_text', columns: ['id'] },
      ids.map((id) => [id]),
    ),

  insertIgnoring: (into, rows) => `INSERT INTO ${into} ${rows} ON CONFLICT DO NOTHING`,
  idsOf: 'unnest(CAST(? AS bigint[])) AS ids (value)',
  // An array (of bigints as strings), which the driver sends back as an array parameter.
  idsAggregate: 'array_agg(d.id)',
  joinIds: (parts) => (parts as unknown[][]).flat(),
  // Values are unique by their md5 there: a B-tree entry cannot hold a long custom property.
  sameValue: 'v.field = wanted.column2 AND md5(v.value) = md5(wanted.column3) AND v.value = wanted.column3',
  contains: (haystack, needle) => `strpos(${haystack}, ${needle}) > 0`,
  joinInOrder: 'JOIN',
  // CASE, not a cast in the WHERE clause: the planner may cast before any other condition, and a bad cast fails the query.
  asNumber: (column) =>
    `(CASE WHEN ${column} ~ '^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$' THEN CAST(${column} AS double precision) END)`,
};

export const SEARCH_DIALECTS: Readonly<Record<SqlDialect, SearchDialect>> = { sqlite, postgres };
