import { pageOf, type Page } from '@mds/core';
import { badRequest } from '@mds/schema';

export const MAX_QUERY_LENGTH = 1_000;

/** DataHub's paging rules (@mds/core), a broken one as a 400. */
export function parsePage(start: number | null | undefined, count: number | null | undefined): Page {
  const page = pageOf(start, count);
  if ('violation' in page) throw badRequest(page.violation);
  return page;
}

/** What a user's query asks for: every tag, or the tags matching an FTS5 expression. */
export type TextQuery = { kind: 'all' } | { kind: 'match'; fts: string } | { kind: 'nothing' };

// A word starts with a letter, digit or private-use character, which FTS5's unicode61 tokenizer always keeps, so each
// word yields at least one token; marks may follow (they are part of the word for diacritic folding).
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\p{M}]*/gu;

/**
 * Turns free text into an FTS5 expression that cannot be anything but "every word, as a prefix": the text is cut into
 * words and each becomes a quoted prefix phrase (`"word"*`), ANDed. Quotes, `*`, `-`, `:`, `NEAR(`, `AND`/`OR` are
 * never passed to FTS5 as syntax: punctuation is dropped, and operator words are quoted, so they are only words.
 * `*` or blank text lists everything; text with no words at all matches nothing.
 */
export function parseTextQuery(text: string | null | undefined): TextQuery {
  const trimmed = (text ?? '').trim();
  if (trimmed === '' || trimmed === '*') return { kind: 'all' };
  if (trimmed.length > MAX_QUERY_LENGTH) throw badRequest(`'query' must be at most ${MAX_QUERY_LENGTH} characters long`);
  const words = trimmed.match(WORD);
  if (!words) return { kind: 'nothing' };
  return { kind: 'match', fts: words.map((word) => `"${word}"*`).join(' ') };
}
