import type { Shape } from '@mds/core';

export type JsonSchema = Record<string, unknown>;

const PRIMITIVES: Record<string, JsonSchema> = {
  string: { type: 'string' },
  long: { type: 'integer', format: 'int64' },
  int: { type: 'integer', format: 'int32' },
  float: { type: 'number' },
  boolean: { type: 'boolean' },
  urn: { type: 'string', pattern: '^urn:li:' },
  any: {},
};

/**
 * The JSON Schema of an aspect shape (@mds/core's aspect-schemas.ts), as its validator reads it: a `!` field is
 * required, unknown fields are allowed (mds keeps them), a union is an object with exactly one member's key.
 */
export function shapeSchema(shape: Shape): JsonSchema {
  if (typeof shape === 'string') return PRIMITIVES[shape]!;
  if ('enum' in shape) return { type: 'string', enum: [...shape.enum] };
  if ('array' in shape) return { type: 'array', items: shapeSchema(shape.array) };
  if ('map' in shape) return { type: 'object', additionalProperties: shapeSchema(shape.map) };
  if ('union' in shape) {
    const members = Object.entries(shape.union);
    return {
      type: 'object',
      minProperties: 1,
      maxProperties: 1,
      properties: Object.fromEntries(members.map(([name, member]) => [name, shapeSchema(member)])),
    };
  }
  const fields = Object.entries(shape.record).map(([name, field]) => [name.replace(/!$/, ''), field, name.endsWith('!')] as const);
  const required = fields.filter(([, , needed]) => needed).map(([name]) => name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map(([name, field]) => [name, shapeSchema(field)])),
    ...(required.length ? { required } : {}),
  };
}
