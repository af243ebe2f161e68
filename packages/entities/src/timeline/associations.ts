import { records, text, urnId, walkSorted, type ChangeCategory, type ChangeEvent, type ChangeGenerator } from './events';

/**
 * How one kind of association list is read and told (tags: `globalTags.tags[].tag`; terms: `glossaryTerms.terms[].urn`;
 * on a schema field, the list sits under the aspect's name).
 */
interface AssociationKind {
  category: ChangeCategory;
  /** The aspect holding the list, also the list's key on a schema field. */
  aspect: string;
  list: string;
  urnKey: string;
  /** The parameter naming the associated urn. */
  parameter: string;
  /** The word the descriptions start with. */
  noun: string;
}

const TAGS: AssociationKind = { category: 'TAG', aspect: 'globalTags', list: 'tags', urnKey: 'tag', parameter: 'tagUrn', noun: 'Tag' };
const TERMS: AssociationKind = {
  category: 'GLOSSARY_TERM',
  aspect: 'glossaryTerms',
  list: 'terms',
  urnKey: 'urn',
  parameter: 'termUrn',
  noun: 'Term',
};

const urnsOf = (value: unknown, kind: AssociationKind) =>
  records(value, kind.list)
    .map((association) => text(association, kind.urnKey))
    .filter((urn): urn is string => urn !== undefined);

/**
 * The associations added and removed between two values (DataHub's GlobalTagsChangeEventGenerator and
 * GlossaryTermsChangeEventGenerator computeDiffs): both lists sorted by urn and walked side by side, each one present on
 * one side only an ADD or a REMOVE (a minor change).
 */
function associationChanges(kind: AssociationKind, base: unknown, target: unknown, entityUrn: string): ChangeEvent[] {
  const before = urnsOf(base, kind);
  const after = urnsOf(target, kind);
  const events: ChangeEvent[] = [];
  const event = (urn: string, operation: 'ADD' | 'REMOVE'): ChangeEvent => ({
    entityUrn,
    category: kind.category,
    operation,
    modifier: urn,
    parameters: [[kind.parameter, urn]],
    semVerChange: 'MINOR',
    description: `${kind.noun} '${urnId(urn)}' ${operation === 'ADD' ? 'added to' : 'removed from'} entity '${entityUrn}'.`,
  });
  walkSorted(before, after, String, (was, is) => {
    if (was === undefined) events.push(event(is!, 'ADD'));
    else if (is === undefined) events.push(event(was, 'REMOVE'));
  });
  return events;
}

/**
 * A schema field's tags (TAG) or terms (GLOSSARY_TERM) added and removed between two of its values (either may be
 * absent), told of the field (DataHub's SchemaFieldTagChangeEvent / SchemaFieldGlossaryTermChangeEvent: the field's
 * path and its parent as leading parameters); other categories give none.
 */
export function fieldAssociationChanges(
  category: ChangeCategory,
  base: Record<string, unknown> | undefined,
  target: Record<string, unknown> | undefined,
  field: { urn: string; path: string; parentUrn: string },
): ChangeEvent[] {
  const kind = category === TAGS.category ? TAGS : category === TERMS.category ? TERMS : undefined;
  if (!kind) return [];
  return associationChanges(kind, base?.[kind.aspect], target?.[kind.aspect], field.urn).map((event) => ({
    ...event,
    parameters: [['fieldPath', field.path], ['parentUrn', field.parentUrn], ...(event.parameters ?? [])],
  }));
}

/** `globalTags` of an entity: tags added and removed (TAG). */
export const globalTagsChanges: ChangeGenerator = (base, target, urn, category) =>
  category === 'TAG' ? associationChanges(TAGS, base, target, urn) : [];

/** `glossaryTerms` of an entity: terms added and removed (GLOSSARY_TERM). */
export const glossaryTermsChanges: ChangeGenerator = (base, target, urn, category) =>
  category === 'GLOSSARY_TERM' ? associationChanges(TERMS, base, target, urn) : [];
