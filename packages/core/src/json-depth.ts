/**
 * Aspects are a few levels deep; far deeper JSON (which JSON.parse accepts) would overflow the stack of
 * JSON.stringify and every other recursive reader down the line, so ingestion refuses it up front.
 */
export const MAX_JSON_NESTING = 100;

/**
 * Whether objects and arrays in `value` nest more than `max` levels (own keys only). The recursion stops at `max`
 * levels, so the stack stays shallow however deep the value goes; unlike a work list, it queues no tuple per node.
 */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_NESTING, depth = 1): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > max) return true;
  for (const child of Object.values(value)) {
    if (nestedDeeperThan(child, max, depth + 1)) return true;
  }
  return false;
}

/** Why `parseJsonWithin` refused a text: its words fit after a parameter's name (`'aspect.value' is nested ...`). */
export class JsonNestingError extends Error {
  override name = 'JsonNestingError';
  constructor(readonly max: number) {
    super(`is nested more than ${max} levels deep`);
  }
}

/**
 * Whether the JSON text `text` opens more than `max` arrays and objects inside one another, read before it is parsed:
 * one pass without recursion, strings skipped whole (an escaped quote does not end one). Text that is not JSON is
 * judged by its brackets alone; JSON.parse refuses it afterwards anyway.
 *
 * Parsing first would cost what the nesting costs: JSON.parse of a 16 MiB `[[[[…` takes seconds of one thread and
 * hundreds of megabytes (8M nested arrays) before any check can look at the value.
 */
export function jsonTextDeeperThan(text: string, max = MAX_JSON_NESTING): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let end = i;
      do {
        end = text.indexOf('"', end + 1);
        if (end < 0) return false;
      } while (escapedAt(text, end));
      i = end;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > max) return true;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

/** JSON.parse of `text` once `jsonTextDeeperThan` has passed it; a JsonNestingError when it nests more than `max`. */
export function parseJsonWithin(text: string, max = MAX_JSON_NESTING): unknown {
  if (jsonTextDeeperThan(text, max)) throw new JsonNestingError(max);
  return JSON.parse(text);
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. Each backslash is counted by one quote at most. */
function escapedAt(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}

/** A JSON object (not an array, not null): what aspect values, MCPs and their parts must be. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
