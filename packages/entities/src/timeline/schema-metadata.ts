import { fieldAssociationChanges } from './associations';
import {
  byCodeUnits,
  downgradeFieldPath,
  records,
  schemaFieldUrn,
  text,
  type ChangeCategory,
  type ChangeEvent,
  type ChangeGenerator,
} from './events';

type Field = Record<string, unknown>;

const INCOMPATIBLE = 'A backwards incompatible change due to';
const COMPATIBLE = 'A forwards & backwards compatible change due to ';

const pathOf = (field: Field) => text(field, 'fieldPath') ?? '';
const nativeTypeOf = (field: Field) => text(field, 'nativeDataType') ?? '';
const nullableOf = (field: Field) => field.nullable === true;

/** A schema field's own change (TECHNICAL_SCHEMA), with DataHub's DatasetSchemaFieldChangeEvent parameters. */
function fieldEvent(
  datasetUrn: string,
  field: Field,
  operation: ChangeEvent['operation'],
  semVerChange: ChangeEvent['semVerChange'],
  modification: 'RENAME' | 'TYPE_CHANGE' | 'OTHER',
  description: string,
): ChangeEvent {
  const fieldUrn = schemaFieldUrn(datasetUrn, pathOf(field));
  return {
    entityUrn: datasetUrn,
    category: 'TECHNICAL_SCHEMA',
    operation,
    modifier: fieldUrn,
    parameters: [
      ['fieldPath', pathOf(field)],
      ['fieldUrn', fieldUrn],
      ['nullable', nullableOf(field)],
      ['modificationCategory', modification],
    ],
    semVerChange,
    description,
  };
}

/** A field's description added (minor), removed (minor) or changed (patch): DOCUMENTATION. */
function descriptionChange(base: Field | undefined, target: Field | undefined, fieldUrn: string): ChangeEvent | undefined {
  const before = base && text(base, 'description');
  const after = target && text(target, 'description');
  const event = (operation: ChangeEvent['operation'], semVerChange: ChangeEvent['semVerChange'], description: string, value: string) => ({
    entityUrn: fieldUrn,
    category: 'DOCUMENTATION' as const,
    operation,
    parameters: [['description', value]] as const,
    semVerChange,
    description,
  });
  if (before === undefined && after !== undefined)
    return event('ADD', 'MINOR', `The description '${after}' for the field '${pathOf(target!)}' has been added.`, after);
  if (before !== undefined && after === undefined)
    return event('REMOVE', 'MINOR', `The description '${before}' for the field '${pathOf(base!)}' has been removed.`, before);
  if (before !== undefined && before !== after)
    return event(
      'MODIFY',
      'PATCH',
      `The description for the field '${pathOf(base!)}' has been changed from '${before}' to '${after}'.`,
      after!,
    );
  return undefined;
}

/** The changes of a field's description, tags and terms between two of its values (either may be absent). */
function propertyChanges(base: Field | undefined, target: Field | undefined, datasetUrn: string, category: ChangeCategory): ChangeEvent[] {
  const field = (target ?? base)!;
  const fieldUrn = schemaFieldUrn(datasetUrn, pathOf(field));
  if (category === 'DOCUMENTATION') {
    const change = descriptionChange(base, target, fieldUrn);
    return change ? [change] : [];
  }
  return fieldAssociationChanges(category, base, target, { urn: fieldUrn, path: pathOf(field), parentUrn: datasetUrn });
}

/** Whether two fields are one renamed (DataHub's isRenamed): same native type, same parent path, same description. */
function isRenamed(a: Field, b: Field): boolean {
  const parent = (field: Field) => {
    const at = pathOf(field).lastIndexOf('.');
    return at > 0 ? pathOf(field).slice(0, at) : at < 0 ? null : undefined;
  };
  const pa = parent(a);
  const pb = parent(b);
  const parentsMatch = pa !== undefined && pb !== undefined && pa === pb;
  return nativeTypeOf(a) === nativeTypeOf(b) && parentsMatch && text(a, 'description') === text(b, 'description');
}

/**
 * `schemaMetadata` of a dataset (DataHub's SchemaMetadataChangeEventGenerator). Fields are matched by path (both sides
 * sorted by it); a field on one side only is a rename when an unmatched field on the other side has the same native
 * type, parent path and description, otherwise a removal (major) or an addition (minor). A matched field's native type
 * changing is major; renames are minor. Descriptions (DOCUMENTATION), tags (TAG) and terms (GLOSSARY_TERM) of fields
 * are diffed alongside, then primary keys added or removed (major).
 */
export const schemaMetadataChanges: ChangeGenerator = (baseValue, targetValue, datasetUrn, category) => {
  const sorted = (value: unknown) => records(value, 'fields').sort((a, b) => byCodeUnits(pathOf(a), pathOf(b)));
  const base = sorted(baseValue);
  const target = sorted(targetValue);
  // Fields are compared by value, as DataHub's records are.
  const key = (field: Field) => JSON.stringify(field);
  const technical = category === 'TECHNICAL_SCHEMA';
  const events: ChangeEvent[] = [];
  const renamed = new Set<string>();

  const renameOf = (field: Field, sameSide: Field[], otherSide: Field[]) => {
    const pending = new Set(sameSide.map(key));
    return otherSide.find((other) => isRenamed(field, other) && !renamed.has(key(other)) && !pending.has(key(other)));
  };
  const removal = (field: Field) => {
    if (technical)
      events.push(
        fieldEvent(
          datasetUrn,
          field,
          'REMOVE',
          'MAJOR',
          'OTHER',
          `${INCOMPATIBLE} removal of field: '${downgradeFieldPath(pathOf(field))}'.`,
        ),
      );
    events.push(...propertyChanges(field, undefined, datasetUrn, category));
  };
  const addition = (field: Field) => {
    if (technical)
      events.push(
        fieldEvent(
          datasetUrn,
          field,
          'ADD',
          'MINOR',
          'OTHER',
          `${COMPATIBLE}the newly added field '${downgradeFieldPath(pathOf(field))}'.`,
        ),
      );
    events.push(...propertyChanges(undefined, field, datasetUrn, category));
  };
  const rename = (from: Field, to: Field) => {
    if (technical)
      events.push(
        fieldEvent(
          datasetUrn,
          from,
          'MODIFY',
          'MINOR',
          'RENAME',
          `${COMPATIBLE}renaming of the field '${downgradeFieldPath(pathOf(from))} to ${downgradeFieldPath(pathOf(to))}'.`,
        ),
      );
    events.push(...propertyChanges(from, to, datasetUrn, category));
  };

  let b = 0;
  let t = 0;
  while (b < base.length && t < target.length) {
    const before = base[b]!;
    const after = target[t]!;
    const order = byCodeUnits(pathOf(before), pathOf(after));
    if (renamed.has(key(before))) b++;
    else if (renamed.has(key(after))) t++;
    else if (order === 0) {
      if (technical && nativeTypeOf(before) !== nativeTypeOf(after))
        events.push(
          fieldEvent(
            datasetUrn,
            before,
            'MODIFY',
            'MAJOR',
            'TYPE_CHANGE',
            `${INCOMPATIBLE} native datatype of the field '${downgradeFieldPath(pathOf(after))}' changed from '${nativeTypeOf(before)}' to '${nativeTypeOf(after)}'.`,
          ),
        );
      events.push(...propertyChanges(before, after, datasetUrn, category));
      b++;
      t++;
    } else if (order < 0) {
      const to = renameOf(before, base.slice(b), target.slice(t));
      if (to) {
        rename(before, to);
        renamed.add(key(to));
      } else removal(before);
      b++;
    } else {
      const from = renameOf(after, target.slice(t), base.slice(b));
      if (from) {
        rename(from, after);
        renamed.add(key(from));
      } else addition(after);
      t++;
    }
  }
  for (; b < base.length; b++) if (!renamed.has(key(base[b]!))) removal(base[b]!);
  for (; t < target.length; t++) if (!renamed.has(key(target[t]!))) addition(target[t]!);

  if (technical) {
    const keys = (value: unknown) => {
      const list = (value as Field | undefined)?.primaryKeys;
      return new Set(Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : []);
    };
    const before = keys(baseValue);
    const after = keys(targetValue);
    const keyEvent = (path: string, what: string): ChangeEvent => {
      const fieldUrn = schemaFieldUrn(datasetUrn, path);
      return {
        entityUrn: datasetUrn,
        category: 'TECHNICAL_SCHEMA',
        operation: 'MODIFY',
        modifier: fieldUrn,
        parameters: [
          ['fieldPath', path],
          ['fieldUrn', fieldUrn],
          ['nullable', false],
          ['modificationCategory', 'OTHER'],
        ],
        semVerChange: 'MAJOR',
        description: `${INCOMPATIBLE} ${what} of the primary key field '${path}'`,
      };
    };
    for (const path of before) if (!after.has(path)) events.push(keyEvent(path, 'removal'));
    for (const path of after) if (!before.has(path)) events.push(keyEvent(path, 'addition'));
  }
  // Each category's events only (a field's tags are not its documentation).
  return events.filter((event) => event.category === category);
};
