/** DataHub's default `count` of a search page. */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 1_000;

export interface Page {
  start: number;
  count: number;
}

/**
 * `start` ≥ 0 and 0 ≤ `count` ≤ 1000, defaulting like DataHub (0 and 10): the page, or the rule broken as the text
 * of the caller's 400.
 */
export function pageOf(
  start: number | null | undefined,
  count: number | null | undefined,
  max: number = MAX_PAGE_SIZE,
): Page | { violation: string } {
  const page = { start: start ?? 0, count: count ?? DEFAULT_PAGE_SIZE };
  if (!Number.isSafeInteger(page.start) || page.start < 0) return { violation: `'start' must be an integer of at least 0` };
  if (!Number.isSafeInteger(page.count) || page.count < 0 || page.count > max) {
    return { violation: `'count' must be an integer from 0 to ${max}` };
  }
  return page;
}
