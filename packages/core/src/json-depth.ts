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

/** A JSON object (not an array, not null): what aspect values, MCPs and their parts must be. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
