import { describe, expect, it } from 'vitest';
import { entityTypeNamesOf } from '../src/entity-types';

describe('entityTypeNamesOf', () => {
  it('names the object types declared or extended with Entity, sorted, and no other', () => {
    const names = entityTypeNamesOf([
      'interface Entity { urn: String! }\ntype Zeta implements Entity { urn: String! }\ntype Plain { a: Int }',
      'type Alpha { urn: String! }\nextend type Alpha implements Entity\ninterface Other { a: Int }\ntype Beta implements Other { a: Int }',
    ]);
    expect(names).toEqual(['Alpha', 'Zeta']);
  });
});
