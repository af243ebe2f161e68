import { records, text, urnId, walkSorted, type ChangeEvent, type ChangeGenerator } from './events';

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
  walkSorted(records(baseValue, 'owners'), records(targetValue, 'owners'), ownerOf, (before, after) => {
    if (before === undefined) added(after!);
    else if (after === undefined) removed(before);
    else if (typeOf(before) !== typeOf(after))
      event(
        after,
        'MODIFY',
        typeOf(after),
        'PATCH',
        `'${idOf(before)}''s ownership type changed from '${typeOf(before)}' to '${typeOf(after)}' for '${urn}'.`,
      );
  });
  return events;
};
