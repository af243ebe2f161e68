import { byCodeUnits, records, text, urnId, type ChangeEvent, type ChangeGenerator } from './events';

type Owner = Record<string, unknown>;

/**
 * `ownership` (DataHub's OwnershipChangeEventGenerator): owners matched by urn; one added or removed is a minor change,
 * one whose type changed a patch — OWNER, with the owner, its type and its type urn as parameters.
 */
export const ownershipChanges: ChangeGenerator = (baseValue, targetValue, urn, category) => {
  if (category !== 'OWNER') return [];
  const ownerOf = (owner: Owner) => text(owner, 'owner') ?? '';
  const typeOf = (owner: Owner) => text(owner, 'type') ?? '';
  const idOf = (owner: Owner) => urnId(ownerOf(owner));
  const sorted = (value: unknown) => records(value, 'owners').sort((a, b) => byCodeUnits(ownerOf(a), ownerOf(b)));
  const base = sorted(baseValue);
  const target = sorted(targetValue);
  const events: ChangeEvent[] = [];
  const event = (
    owner: Owner,
    operation: ChangeEvent['operation'],
    modifier: string,
    semVerChange: ChangeEvent['semVerChange'],
    description: string,
  ) => {
    const typeUrn = text(owner, 'typeUrn');
    events.push({
      entityUrn: urn,
      category,
      operation,
      modifier,
      parameters: [
        ['ownerUrn', ownerOf(owner)],
        ['ownerType', typeOf(owner)],
        ...(typeUrn === undefined ? [] : [['ownerTypeUrn', typeUrn] as const]),
      ],
      semVerChange,
      description,
    });
  };
  const removed = (owner: Owner) =>
    event(owner, 'REMOVE', ownerOf(owner), 'MINOR', `'${idOf(owner)}' removed as a \`${typeOf(owner)}\` of '${urn}'.`);
  const added = (owner: Owner) =>
    event(owner, 'ADD', ownerOf(owner), 'MINOR', `'${idOf(owner)}' added as a \`${typeOf(owner)}\` of '${urn}'.`);
  let b = 0;
  let t = 0;
  while (b < base.length && t < target.length) {
    const before = base[b]!;
    const after = target[t]!;
    const order = byCodeUnits(ownerOf(before), ownerOf(after));
    if (order === 0) {
      if (typeOf(before) !== typeOf(after))
        event(
          after,
          'MODIFY',
          typeOf(after),
          'PATCH',
          `'${idOf(before)}''s ownership type changed from '${typeOf(before)}' to '${typeOf(after)}' for '${urn}'.`,
        );
      b++;
      t++;
    } else if (order < 0) removed(base[b++]!);
    else added(target[t++]!);
  }
  while (b < base.length) removed(base[b++]!);
  while (t < target.length) added(target[t++]!);
  return events;
};
