/** A URN refused by DataHub's rules (entities-api §4.1); its message is the text the client sees (a 400). */
export class UrnError extends Error {
  override name = 'UrnError';
}

/** `urn:li:<entityType>:<key>`, with the key split into its tuple parts (`[id]` for a simple key). */
export interface Urn {
  readonly text: string;
  readonly entityType: string;
  readonly parts: readonly string[];
}

const MAX_ENCODED_BYTES = 512;
const DELIMITER = '\u241F';
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Urns parsed lately, by text: a read meets the same urns again and again (every schema field's `schemaField` urn,
 * the actor of every request), and the checks cost more than a lookup. Only valid urns are kept (a refused one is
 * parsed again: its error costs its sender), at most PARSED_KEPT of them, all forgotten at once when full. A `Urn`
 * is frozen, so sharing one between callers is safe.
 */
const parsed = new Map<string, Urn>();
const PARSED_KEPT = 8192;

const invalid = (text: string, cause: string) => new UrnError(`Invalid urn: ${text}\n Cause: ${cause}`);

/**
 * Parses a URN as DataHub 1.x validates it (UrnValidationUtil): no padding whitespace, at most 512 bytes URL-encoded,
 * no U+241F, no control character (mds's rule: PostgreSQL cannot store NUL), `urn:li:<type>:<key>`. A tuple key `(a,b,c)` splits on the commas at parenthesis depth 0, so nested URNs
 * keep theirs; a part that still holds a bare comma or unbalanced parenthesis is refused (DataHub only logs it unless
 * strict validation is on; mds is strict).
 */
export function parseUrn(text: string): Urn {
  let urn = parsed.get(text);
  if (urn === undefined) {
    urn = parseNew(text);
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(text, urn);
  }
  return urn;
}

function parseNew(text: string): Urn {
  if (text.trim() !== text) throw new UrnError('Error: cannot provide an URN with leading or trailing whitespace');
  // A lone surrogate has no UTF-8 form: neither URL-encodable nor storable as text.
  if (LONE_SURROGATE.test(text)) throw invalid(text, 'the URN holds a lone surrogate (not valid Unicode)');
  // NUL cannot be stored in PostgreSQL text, and a line break or other control character splits logs and headers.
  if (CONTROL.test(text)) throw invalid(text, 'the URN holds a control character');
  if (Buffer.byteLength(encodeURIComponent(text)) > MAX_ENCODED_BYTES) {
    throw new UrnError(`Error: cannot provide an URN longer than ${MAX_ENCODED_BYTES} bytes (when URL encoded)`);
  }
  if (text.includes(DELIMITER)) throw new UrnError(`Error: URN cannot contain ${DELIMITER} character`);
  const match = /^urn:li:([A-Za-z][A-Za-z0-9]*):(.+)$/s.exec(text);
  if (!match) throw invalid(text, "URN must start with 'urn:li:<entityType>:' and have a key");
  const [, entityType, key] = match as unknown as [string, string, string];
  if (!key.startsWith('(')) {
    if (/[(),]/.test(key) && !isBalanced(key)) throw invalid(text, 'unbalanced parentheses in the key');
    return Object.freeze({ text, entityType, parts: Object.freeze([key]) });
  }
  if (!key.endsWith(')')) throw invalid(text, "a tuple key must end with ')'");
  const parts = splitTuple(key.slice(1, -1));
  if (!parts) throw invalid(text, 'unbalanced parentheses in the tuple key');
  const empty = parts.findIndex((part) => part === '');
  if (empty >= 0) throw invalid(text, `tuple part ${empty + 1} is empty`);
  return Object.freeze({ text, entityType, parts: Object.freeze(parts) });
}

/** The entity type a urn names, as written; undefined when the text is no valid urn. */
export function urnTypeOf(text: string): string | undefined {
  try {
    return parseUrn(text).entityType;
  } catch (error) {
    if (error instanceof UrnError) return undefined;
    throw error;
  }
}

/** The parts of `a,(b,c),d` split at depth 0, or undefined when parentheses do not balance. */
export function splitTuple(inner: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return undefined;
    else if (c === ',' && depth === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  if (depth !== 0) return undefined;
  parts.push(inner.slice(start));
  return parts;
}

const isBalanced = (text: string) => splitTuple(text)?.length === 1 && !text.includes(',');

/** The URN of an entity type and its key parts: `urn:li:tag:pii`, `urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)`. */
export function makeUrn(entityType: string, parts: readonly string[]): string {
  return parts.length === 1 ? `urn:li:${entityType}:${parts[0]}` : `urn:li:${entityType}:(${parts.join(',')})`;
}

/**
 * A URN from a path segment. The Python SDK percent-encodes the whole URN (`:`, `(`, `)`, `,`); decoded once. An
 * unencoded URN passes through, and so does a `%` that starts no escape.
 */
export function decodeUrnPathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The elements of a Rest.li `List(a,b)` parameter, as found in the raw query string: split on unencoded commas outside
 * parentheses (an unencoded tuple URN keeps its own), then each decoded.
 */
export function parseRestliList(text: string): string[] {
  const match = /^List\((.*)\)$/s.exec(text);
  if (!match) throw new UrnError(`Expected a Rest.li list like List(a,b), got: ${text}`);
  if (match[1] === '') return [];
  const elements: string[] = [];
  let depth = 0;
  let start = 0;
  const inner = match[1]!;
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '(') depth++;
    else if (inner[i] === ')') depth--;
    else if (inner[i] === ',' && depth === 0) {
      elements.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  elements.push(inner.slice(start));
  return elements.map(decodeUrnPathSegment);
}

/**
 * The elements of the array parameter `name` in a raw query string, in every spelling Rest.li clients send: protocol
 * 2.0's `name=List(a,b)`, a bare `name=a` (one element, taken whole: a tuple URN keeps its commas), and protocol
 * 1.0's repeated `name=a&name=b`; the spellings may be mixed, elements keep their order. Undefined when absent.
 */
export function restliArrayParameter(query: string, name: string): string[] | undefined {
  let found: string[] | undefined;
  for (const pair of query.split('&')) {
    const at = pair.indexOf('=');
    if (at <= 0 || pair.slice(0, at) !== name) continue;
    const raw = pair.slice(at + 1);
    (found ??= []).push(...(raw.startsWith('List(') ? parseRestliList(raw) : [decodeUrnPathSegment(raw)]));
  }
  return found;
}
