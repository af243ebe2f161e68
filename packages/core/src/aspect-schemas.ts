import { MODEL } from './model/data';
import type { TypeRef } from './model/types';

/**
 * Every aspect's value shape in a compact form for documents (the OpenAPI schemas are generated from it), projected
 * from the generated model: a record lists its fields by name, a trailing `!` marking a required one (neither
 * optional nor defaulted); a typeref named `…Urn` is `urn`; `double` reads as `float`, `bytes` and `fixed` as `string`.
 * Validation does not read these (validate.ts compiles the model itself).
 */
export type Primitive = 'string' | 'long' | 'int' | 'float' | 'boolean' | 'urn' | 'any';
export type Shape =
  | Primitive
  | { readonly enum: readonly string[] }
  | { readonly array: Shape }
  | { readonly map: Shape }
  | { readonly record: Readonly<Record<string, Shape>> }
  /** An object with exactly one key, the member's name (full class name, or the primitive's name). */
  | { readonly union: Readonly<Record<string, Shape>> };

const PRIMITIVE: Readonly<Record<string, Primitive>> = {
  string: 'string',
  long: 'long',
  int: 'int',
  float: 'float',
  double: 'float',
  boolean: 'boolean',
  bytes: 'string',
  null: 'any',
};

const named = new Map<string, Shape>();

function shapeOf(type: TypeRef): Shape {
  if (typeof type === 'string') return PRIMITIVE[type] ?? namedShape(type);
  if ('array' in type) return { array: shapeOf(type.array) };
  if ('map' in type) return { map: shapeOf(type.map) };
  return { union: Object.fromEntries(type.union.map((m) => [m.key, shapeOf(m.type)])) };
}

function namedShape(name: string): Shape {
  const known = named.get(name);
  if (known) return known;
  const data = MODEL.types[name]!;
  let shape: Shape;
  if ('record' in data) {
    shape = {
      record: Object.fromEntries(data.record.map((f) => [f.optional || f.default !== undefined ? f.name : `${f.name}!`, shapeOf(f.type)])),
    };
  } else if ('enum' in data) shape = { enum: data.enum };
  else if ('fixed' in data) shape = 'string';
  else {
    const target = shapeOf(data.typeref);
    shape = name.endsWith('Urn') && target === 'string' ? 'urn' : target;
  }
  named.set(name, shape);
  return shape;
}

/** The shape of every aspect of the registry, by aspect name. */
export const ASPECT_SHAPES: ReadonlyMap<string, Shape> = new Map(
  Object.entries(MODEL.aspects).map(([name, a]) => [name, namedShape(a.class)]),
);
