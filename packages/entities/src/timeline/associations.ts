import { byCodeUnits, records, text, urnId, type ChangeCategory, type ChangeEvent, type ChangeGenerator } from './events';

/** How one kind of association list is read and told (tags: `globalTags.tags[].tag`; terms: `glossaryTerms.terms[].urn`). */
interface AssociationKind {
  category: ChangeCategory;
  list: string;
  urnKey: string;
  /** The parameter naming the associated urn. */
  parameter: string;
  added: (id: string, entityUrn: string) => string;
  removed: (id: string, entityUrn: string) => string;
}

export const TAGS: AssociationKind = {
  category: 'TAG',
  list: 'tags',
  urnKey: 'tag',
  parameter: 'tagUrn',
  added: (id, urn) => `Tag '${id}' added to entity '${urn}'.`,
  removed: (id, urn) => `Tag '${id}' removed from entity '${urn}'.`,
};

export const TERMS: AssociationKind = {
  category: 'GLOSSARY_TERM',
  list: 'terms',
  urnKey: 'urn',
  parameter: 'termUrn',
  added: (id, urn) => `Term '${id}' added to entity '${urn}'.`,
  removed: (id, urn) => `Term '${id}' removed from entity '${urn}'.`,
};

const urnsOf = (value: unknown, kind: AssociationKind) =>
  records(value, kind.list)
    .map((association) => text(association, kind.urnKey))
    .filter((urn): urn is string => urn !== undefined)
    .sort(byCodeUnits);

/**
 * The associations added and removed between two values (DataHub's GlobalTagsChangeEventGenerator and
 * GlossaryTermsChangeEventGenerator computeDiffs): both lists sorted by urn and walked side by side, each one present on
 * one side only an ADD or a REMOVE (a minor change).
 */
export function associationChanges(kind: AssociationKind, base: unknown, target: unknown, entityUrn: string): ChangeEvent[] {
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
    description: operation === 'ADD' ? kind.added(urnId(urn), entityUrn) : kind.removed(urnId(urn), entityUrn),
  });
  let b = 0;
  let t = 0;
  while (b < before.length && t < after.length) {
    const order = byCodeUnits(before[b]!, after[t]!);
    if (order === 0) {
      b++;
      t++;
    } else if (order < 0) events.push(event(before[b++]!, 'REMOVE'));
    else events.push(event(after[t++]!, 'ADD'));
  }
  while (b < before.length) events.push(event(before[b++]!, 'REMOVE'));
  while (t < after.length) events.push(event(after[t++]!, 'ADD'));
  return events;
}

/** The same changes told of a schema field (DataHub's SchemaFieldTagChangeEvent / SchemaFieldGlossaryTermChangeEvent). */
export const fieldAssociationChanges = (events: readonly ChangeEvent[], fieldPath: string, parentUrn: string) =>
  events.map((event): ChangeEvent => ({
    ...event,
    parameters: [['fieldPath', fieldPath], ['parentUrn', parentUrn], ...(event.parameters ?? [])],
  }));

/** `globalTags` of an entity: tags added and removed (TAG). */
export const globalTagsChanges: ChangeGenerator = (base, target, urn, category) =>
  category === 'TAG' ? associationChanges(TAGS, base, target, urn) : [];

/** `glossaryTerms` of an entity: terms added and removed (GLOSSARY_TERM). */
export const glossaryTermsChanges: ChangeGenerator = (base, target, urn, category) =>
  category === 'GLOSSARY_TERM' ? associationChanges(TERMS, base, target, urn) : [];
