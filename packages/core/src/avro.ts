import { MODEL } from './model/data';
import type { TypeRef } from './model/types';

/**
 * Aspect values in the Avro JSON that DataHub's ingestion files (MCE snapshots) may use, read as the Pegasus JSON mds
 * stores, guided by the aspect's schema:
 * - class names: `com.linkedin.pegasus2avro.schema.MySqlDDL` → `com.linkedin.schema.MySqlDDL`;
 * - Avro's wrapper of an optional field's value (`{"string": "x"}`, `{"array": […]}`, `{"<record>": {…}}`) → the value;
 * - a Pegasus union written bare (`"SQL"` for DataJobInfo's `type`) → wrapped in the first member that takes it;
 * - an aliased union in Avro's record form (`{"fieldDiscriminator": "costCode", "costCode": …}`) → `{"costCode": …}`.
 * Parts the schema does not describe are left as they are.
 */

const AVRO_PREFIX = 'com.linkedin.pegasus2avro.';
const PEGASUS_PREFIX = 'com.linkedin.';
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const pegasusName = (name: string) => (name.startsWith(AVRO_PREFIX) ? PEGASUS_PREFIX + name.slice(AVRO_PREFIX.length) : name);

/** A type followed through typerefs. */
function deref(type: TypeRef): TypeRef {
  let current = type;
  for (;;) {
    if (typeof current !== 'string') return current;
    const data = MODEL.types[current];
    if (!data || !('typeref' in data)) return current;
    current = data.typeref;
  }
}

/** The key Avro wraps a value of this type under: its primitive name, `array`, `map`, or the named type's name. */
function avroKey(type: TypeRef): string | undefined {
  if (typeof type === 'string') return type;
  if ('array' in type) return 'array';
  if ('map' in type) return 'map';
  return undefined;
}

/** Whether a bare JSON value can be a value of the type (a union member's test). */
function takes(type: TypeRef, value: unknown): boolean {
  const target = deref(type);
  if (typeof target !== 'string') return 'array' in target ? Array.isArray(value) : 'map' in target && isObject(value);
  switch (target) {
    case 'string':
    case 'bytes':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
    case 'long':
      return Number.isInteger(value);
    case 'float':
    case 'double':
      return typeof value === 'number';
    case 'null':
      return value === null;
  }
  const data = MODEL.types[target];
  if (data && 'enum' in data) return typeof value === 'string' && data.enum.includes(value);
  return data !== undefined && 'record' in data && isObject(value);
}

function convert(type: TypeRef, value: unknown): unknown {
  const target = deref(type);
  if (typeof target !== 'string' && 'union' in target) return convertUnion(target.union, value);
  // An Avro optional's wrapper around the value: one key, naming the value's own type.
  if (isObject(value)) {
    const keys = Object.keys(value);
    const key = avroKey(target);
    const inner = keys.length === 1 ? value[keys[0]!] : undefined;
    if (key !== undefined && keys.length === 1 && pegasusName(keys[0]!) === key && takes(target, inner)) return convert(type, inner);
  }
  if (typeof target === 'string') {
    const data = MODEL.types[target];
    if (!data || !('record' in data) || !isObject(value)) return value;
    const fields = new Map(data.record.map((f) => [f.name, f.type]));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fields.has(k) && v !== null ? convert(fields.get(k)!, v) : v]));
  }
  if ('array' in target) return Array.isArray(value) ? value.map((item) => convert(target.array, item)) : value;
  if ('map' in target)
    return isObject(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(target.map, v)])) : value;
  return value;
}

function convertUnion(members: readonly { key: string; type: TypeRef }[], value: unknown): unknown {
  if (value === null) return value;
  if (isObject(value)) {
    const discriminator = value.fieldDiscriminator;
    if (typeof discriminator === 'string' && Object.hasOwn(value, discriminator)) {
      const member = members.find((m) => m.key === discriminator);
      return member ? { [discriminator]: convert(member.type, value[discriminator]) } : value;
    }
    const keys = Object.keys(value);
    if (keys.length === 1) {
      const key = pegasusName(keys[0]!);
      const member = members.find((m) => m.key === key);
      if (member) return { [key]: convert(member.type, value[keys[0]!]) };
    }
  }
  const member = members.find((m) => takes(m.type, value));
  return member ? { [member.key]: convert(member.type, value) } : value;
}

/** An aspect value in Avro JSON (an MCE file's) as Pegasus JSON; unknown aspects come back unchanged. */
export function pegasusFromAvro(aspectName: string, value: unknown): unknown {
  const aspect = MODEL.aspects[aspectName];
  return aspect ? convert(aspect.class, value) : value;
}
