import { fieldAssociationChanges } from './associations';
import { records, schemaFieldUrn, text, walkSorted, type ChangeEvent, type ChangeGenerator } from './events';

/**
 * An entity's text at `key` added, removed or changed, each a minor change: DOCUMENTATION. DataHub's
 * DatasetPropertiesChangeEventGenerator and EditableDatasetPropertiesChangeEventGenerator tell a description so (the
 * text as parameter), its GlossaryTermInfoChangeEventGenerator a term's definition (no parameter).
 */
const textChanges =
  (key: string, parameter: boolean): ChangeGenerator =>
  (base, target, urn, category) => {
    if (category !== 'DOCUMENTATION') return [];
    const before = text(base, key);
    const after = text(target, key);
    const event = (operation: ChangeEvent['operation'], description: string, value: string): ChangeEvent[] => [
      {
        entityUrn: urn,
        category,
        operation,
        ...(parameter ? { parameters: [['description', value]] as const } : {}),
        semVerChange: 'MINOR',
        description,
      },
    ];
    if (before === undefined && after !== undefined) return event('ADD', `Documentation for '${urn}' has been added: '${after}'.`, after);
    if (before !== undefined && after === undefined)
      return event('REMOVE', `Documentation for '${urn}' has been removed: '${before}'.`, before);
    if (before !== undefined && after !== undefined && before !== after)
      return event('MODIFY', `Documentation of '${urn}' has been changed from '${before}' to '${after}'.`, after);
    return [];
  };

/** `datasetProperties` and `editableDatasetProperties`: the description. */
export const descriptionChanges = textChanges('description', true);
/** `glossaryTermInfo`: the definition. */
export const definitionChanges = textChanges('definition', false);

/**
 * `institutionalMemory` (DataHub's InstitutionalMemoryChangeEventGenerator): links matched by url, each added or removed
 * a minor change, a link's description changed a patch: DOCUMENTATION, the url as modifier, no parameters.
 */
export const institutionalMemoryChanges: ChangeGenerator = (baseValue, targetValue, urn, category) => {
  if (category !== 'DOCUMENTATION') return [];
  const urlOf = (link: Record<string, unknown>) => text(link, 'url') ?? '';
  const events: ChangeEvent[] = [];
  const event = (
    link: Record<string, unknown>,
    operation: ChangeEvent['operation'],
    semVerChange: ChangeEvent['semVerChange'],
    description: string,
  ) => events.push({ entityUrn: urn, category, operation, modifier: urlOf(link), semVerChange, description });
  const removed = (link: Record<string, unknown>) =>
    event(
      link,
      'REMOVE',
      'MINOR',
      `Institutional Memory '${urlOf(link)}' with documentation of '${urn}' has been removed: '${text(link, 'description')}'`,
    );
  const added = (link: Record<string, unknown>) =>
    event(
      link,
      'ADD',
      'MINOR',
      `Institutional Memory '${urlOf(link)}' with documentation of '${urn}' has been added: '${text(link, 'description')}'`,
    );
  walkSorted(records(baseValue, 'elements'), records(targetValue, 'elements'), urlOf, (before, after) => {
    if (before === undefined) added(after!);
    else if (after === undefined) removed(before);
    else if (text(before, 'description') !== text(after, 'description'))
      event(
        before,
        'MODIFY',
        'PATCH',
        `Documentation of Institutional Memory '${urlOf(before)}' of  '${urn}' has been changed from '${text(before, 'description')}' to '${text(after, 'description')}'.`,
      );
  });
  return events;
};

/** How Java prints an Optional of a field path (DataHub's removal text prints one). */
const optional = (path: string | undefined) => (path === undefined ? 'Optional.empty' : `Optional[${path}]`);

/**
 * `editableSchemaMetadata` (DataHub's EditableSchemaMetadataChangeEventGenerator): field infos matched by path; a
 * field's edited description added or removed (minor) or changed (patch) — DOCUMENTATION, the path as modifier — and
 * its edited tags (TAG) and terms (GLOSSARY_TERM).
 */
export const editableSchemaMetadataChanges: ChangeGenerator = (baseValue, targetValue, urn, category) => {
  const pathOf = (info: Record<string, unknown>) => text(info, 'fieldPath') ?? '';
  const events: ChangeEvent[] = [];
  const changes = (before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined) => {
    const path = pathOf((before ?? after)!);
    const fieldUrn = schemaFieldUrn(urn, path);
    if (category === 'DOCUMENTATION') {
      const was = before && text(before, 'description');
      const is = after && text(after, 'description');
      const event = (
        operation: ChangeEvent['operation'],
        semVerChange: ChangeEvent['semVerChange'],
        modifier: string,
        description: string,
        value: string,
      ) =>
        events.push({
          entityUrn: fieldUrn,
          category,
          operation,
          modifier,
          parameters: [['description', value]],
          semVerChange,
          description,
        });
      if (was === undefined && is !== undefined)
        event(
          'ADD',
          'MINOR',
          pathOf(after!),
          `Documentation for the field '${pathOf(after!)}' of '${fieldUrn}' has been added: '${is}'`,
          is,
        );
      else if (was !== undefined && is === undefined)
        event(
          'REMOVE',
          'MINOR',
          pathOf(before!),
          `Documentation for the field '${optional(after && pathOf(after))}' of '${fieldUrn}' has been removed: '${was}'`,
          was,
        );
      else if (was !== undefined && is !== undefined && was !== is)
        event(
          'MODIFY',
          'PATCH',
          pathOf(after!),
          `Documentation for the field '${pathOf(after!)}' of '${fieldUrn}' has been updated from '${was}' to '${is}'.`,
          is,
        );
      return;
    }
    // The field's urn is its own parent here, as DataHub's generator names it.
    events.push(...fieldAssociationChanges(category, before, after, { urn: fieldUrn, path, parentUrn: fieldUrn }));
  };
  walkSorted(records(baseValue, 'editableSchemaFieldInfo'), records(targetValue, 'editableSchemaFieldInfo'), pathOf, changes);
  return events;
};
