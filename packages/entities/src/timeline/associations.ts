import { records, text, urnId, walkSorted, type ChangeCategory, type ChangeEvent, type ChangeGenerator } from './events';

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
    .filter((urn): urn is string => urn !== undefined);

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
  walkSorted(before, after, String, (was, is) => {
    if (was === undefined) events.push(event(is!, 'ADD'));
    else if (is === undefined) events.push(event(was, 'REMOVE'));
  });
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
