import { buildSchema } from 'graphql';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyChanges, formatChanges, renderSnapshot, SNAPSHOT_FILE, UPDATE_COMMAND } from '../scripts/schema-diff';

describe('schema.graphql (the committed SDL snapshot)', () => {
  it('is the SDL the code serves', async () => {
    const committed = readFileSync(SNAPSHOT_FILE, 'utf8');
    const current = renderSnapshot();
    let explanation = '';
    if (committed !== current) {
      const { breaking } = await classifyChanges(buildSchema(committed), buildSchema(current));
      explanation =
        `packages/schema/schema.graphql is stale: run \`${UPDATE_COMMAND}\` and commit it.\n` +
        (breaking.length ? `Breaking changes against the snapshot:\n${formatChanges(breaking)}` : 'No breaking changes.');
      // Also on the console: CI logs show it even where the assertion diff is truncated.
      console.error(explanation);
    }
    expect(current, explanation).toBe(committed);
  });
});

describe('classifyChanges', () => {
  const snapshot = buildSchema(readFileSync(SNAPSHOT_FILE, 'utf8'));
  const edited = (from: string, to: string) => {
    const sdl = readFileSync(SNAPSHOT_FILE, 'utf8');
    expect(sdl).toContain(from);
    return buildSchema(sdl.replace(from, to));
  };

  it('reports a removed field as breaking', async () => {
    const withoutColor = edited('type TagProperties {\n  colorHex: String\n', 'type TagProperties {\n');
    const { breaking, dangerous, safe } = await classifyChanges(snapshot, withoutColor);
    expect(formatChanges(breaking)).toBe("  - TagProperties.colorHex: Field 'colorHex' was removed from object type 'TagProperties'");
    expect([...dangerous, ...safe]).toEqual([]);
  });

  it('reports a new required argument as breaking, a new enum value as dangerous, a new field as safe', async () => {
    const before = buildSchema('type Query { tag(urn: String!): String }  enum Kind { A }  type T { a: Kind }');
    const after = buildSchema('type Query { tag(urn: String!, version: Int!): String }  enum Kind { A B }  type T { a: Kind b: Int }');
    const { breaking, dangerous, safe } = await classifyChanges(before, after);
    expect(breaking.map((c) => c.path)).toEqual(['Query.tag.version']);
    expect(dangerous.map((c) => c.path)).toEqual(['Kind.B']);
    expect(safe.map((c) => c.path)).toEqual(['T.b']);
  });

  it('finds nothing between a schema and itself', async () => {
    expect(await classifyChanges(snapshot, snapshot)).toEqual({ breaking: [], dangerous: [], safe: [] });
  });
});
