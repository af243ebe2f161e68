import { ASPECT_SHAPES, isJsonObject, type Shape } from '@mds/core';

// DataHub's v1 OpenAPI models (generated Java classes) mark a record's class with `__type` and write a union as its
// member's fields plus `__type` (`{"__type": "MySqlDDL", "tableSchema": …}`), where Pegasus JSON, which mds stores,
// writes `{"com.linkedin.schema.MySqlDDL": {"tableSchema": …}}`. These two walk an aspect's shape to convert.

/** `com.linkedin.schema.MySqlDDL` → `MySqlDDL`, the name `__type` carries. */
export const simpleName = (className: string) => className.slice(className.lastIndexOf('.') + 1);
const fieldShapes = (record: Readonly<Record<string, Shape>>) =>
  new Map(Object.entries(record).map(([name, shape]) => [name.replace(/!$/, ''), shape]));

/** A value in the v1 `__type` form as Pegasus JSON; parts the shape does not describe are left as they are. */
export function fromTyped(value: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined || typeof shape === 'string' || 'enum' in shape) return value;
  if ('array' in shape) return Array.isArray(value) ? value.map((item) => fromTyped(item, shape.array)) : value;
  if (!isJsonObject(value)) return value;
  if ('map' in shape) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fromTyped(item, shape.map)]));
  if ('union' in shape) {
    const { __type: type, ...fields } = value;
    const member = typeof type === 'string' ? Object.keys(shape.union).find((name) => simpleName(name) === type) : undefined;
    return member === undefined ? value : { [member]: fromTyped(fields, shape.union[member]) };
  }
  const fields = fieldShapes(shape.record);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '__type')
      .map(([key, item]) => [key, fromTyped(item, fields.get(key))]),
  );
}

/** A stored (Pegasus JSON) value in the v1 `__type` form, its record marked with `className`'s simple name. */
export function toTyped(value: unknown, shape: Shape | undefined, className?: string): unknown {
  if (shape === undefined || typeof shape === 'string' || 'enum' in shape) return value;
  if ('array' in shape) return Array.isArray(value) ? value.map((item) => toTyped(item, shape.array)) : value;
  if (!isJsonObject(value)) return value;
  if ('map' in shape) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toTyped(item, shape.map)]));
  if ('union' in shape) {
    const [member, ...others] = Object.keys(value);
    const memberShape = member === undefined || others.length ? undefined : shape.union[member];
    const converted = memberShape === undefined ? undefined : toTyped(value[member!], memberShape, member);
    return isJsonObject(converted) ? converted : value;
  }
  const fields = fieldShapes(shape.record);
  const typed = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toTyped(item, fields.get(key))]));
  return className ? { __type: simpleName(className), ...typed } : typed;
}

/** An aspect's value from the v1 form. */
export const aspectFromTyped = (aspect: string, value: unknown) => fromTyped(value, ASPECT_SHAPES.get(aspect));
/** An aspect's stored value in the v1 form, `__type` its PDL class's simple name. */
export const aspectToTyped = (aspect: string, pdlClass: string, value: unknown) =>
  toTyped(value, ASPECT_SHAPES.get(aspect) ?? { record: {} }, pdlClass);
