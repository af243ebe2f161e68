/**
 * The vocabulary of a timeline (DataHub's `com.linkedin.metadata.timeline.data`): what changed between two stored
 * versions of an aspect, how much it matters (the semantic change), and the transactions grouping changes by time.
 */

/** The kinds of change the timeline tells apart (DataHub's ChangeCategory). */
export const CHANGE_CATEGORIES = [
  'DOCUMENTATION',
  'GLOSSARY_TERM',
  'OWNER',
  'TECHNICAL_SCHEMA',
  'TAG',
  'DOMAIN',
  'DEPRECATION',
  'LIFECYCLE',
  'RUN',
  'BUSINESS_ATTRIBUTE',
] as const;
export type ChangeCategory = (typeof CHANGE_CATEGORIES)[number];

export type ChangeOperation = 'ADD' | 'MODIFY' | 'REMOVE';

/** How much a change matters, least first (DataHub's SemanticChangeType, whose order decides the version bump). */
export const SEMANTIC_CHANGES = ['NONE', 'PATCH', 'MINOR', 'MAJOR', 'EXCEPTIONAL'] as const;
export type SemanticChange = (typeof SEMANTIC_CHANGES)[number];

/** The larger of two semantic changes. */
export const higher = (a: SemanticChange, b: SemanticChange): SemanticChange =>
  SEMANTIC_CHANGES.indexOf(a) >= SEMANTIC_CHANGES.indexOf(b) ? a : b;

/** One change to an entity or one of its fields. */
export interface ChangeEvent {
  entityUrn: string;
  category: ChangeCategory;
  operation: ChangeOperation;
  /** What the change is about when the entity has several (a field's urn, a tag's urn, a link). */
  modifier?: string;
  /** Named values, in DataHub's order (values become strings on the wire). */
  parameters?: readonly (readonly [string, string | boolean])[];
  semVerChange: SemanticChange;
  description: string;
}

/** The changes made at one time (every aspect written in the same millisecond), with the version they led to. */
export interface ChangeTransaction {
  timestamp: number;
  actor: string;
  /** The semantic version after these changes, `major.minor.patch-computed`. */
  semVer: string;
  semVerChange: SemanticChange;
  changeEvents: ChangeEvent[];
  /** The version of every aspect at that time, `aspect:version;…` by aspect name. */
  versionStamp: string;
}

/**
 * The changes of one category between two values of an aspect (`base` undefined: the aspect did not exist yet). A
 * generator answers only the categories it knows; others give no events.
 */
export type ChangeGenerator = (
  base: Record<string, unknown> | undefined,
  target: Record<string, unknown>,
  urn: string,
  category: ChangeCategory,
) => ChangeEvent[];

export { schemaFieldUrn } from '../model/relationships';

const FIELD_PATH_V2 = '[version=2.0]';
/** A v2 field path as a v1 one (type and version segments dropped), as DataHub's downgradeFieldPath; v1 paths unchanged. */
export function downgradeFieldPath(fieldPath: string): string {
  if (!fieldPath.startsWith(FIELD_PATH_V2)) return fieldPath;
  return fieldPath
    .slice(FIELD_PATH_V2.length)
    .split('.')
    .filter((part) => part !== '' && !(part.startsWith('[') && part.endsWith(']')))
    .join('.');
}

/** An urn's id: what follows `urn:li:<type>:` (DataHub's Urn.getId). */
export const urnId = (urn: string) => urn.split(':').slice(3).join(':');

/** Java's String.compareTo order (UTF-16 code units), which DataHub's generators sort by. */
export const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Two lists walked side by side in `keyOf` order (each sorted by it first, stably), as DataHub's generators walk them:
 * `visit` gets each pair of items with the same key, and each item found on one side only (the other undefined).
 */
export function walkSorted<T>(
  base: readonly T[],
  target: readonly T[],
  keyOf: (item: T) => string,
  visit: (before: T | undefined, after: T | undefined) => void,
): void {
  const sorted = (list: readonly T[]) => [...list].sort((a, b) => byCodeUnits(keyOf(a), keyOf(b)));
  const before = sorted(base);
  const after = sorted(target);
  let b = 0;
  let t = 0;
  while (b < before.length && t < after.length) {
    const order = byCodeUnits(keyOf(before[b]!), keyOf(after[t]!));
    if (order === 0) visit(before[b++], after[t++]);
    else if (order < 0) visit(before[b++], undefined);
    else visit(undefined, after[t++]);
  }
  while (b < before.length) visit(before[b++], undefined);
  while (t < after.length) visit(undefined, after[t++]);
}

/** A string member of a stored value, or undefined. */
export const text = (value: unknown, key: string): string | undefined => {
  const member = (value as Record<string, unknown> | undefined)?.[key];
  return typeof member === 'string' ? member : undefined;
};

/** A list member of a stored value (records only), or an empty list. */
export const records = (value: unknown, key: string): Record<string, unknown>[] => {
  const member = (value as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(member) ? member.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
};
