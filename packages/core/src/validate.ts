import { ASPECT_SHAPES, type Primitive, type Shape } from './aspect-schemas';

type JsonObject = Record<string, unknown>;
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const json = (value: unknown): string => JSON.stringify(value) ?? String(value);

const INT32 = 2 ** 31;
const PRIMITIVE_OK: Record<Primitive, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  // JSON numbers: long/int must be integral, float any finite number.
  long: (v) => Number.isInteger(v),
  int: (v) => Number.isInteger(v) && (v as number) >= -INT32 && (v as number) < INT32,
  float: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  urn: (v) => typeof v === 'string' && v.startsWith('urn:li:'),
  any: () => true,
};

/**
 * Problems of `value` as the aspect `aspectName`, as `ERROR :: /<path> :: <msg>` lines (Pegasus validator wording);
 * [] when valid or the aspect has no declared shape. Unknown fields are not problems: mds keeps them as written.
 */
export function validateAspect(aspectName: string, value: unknown): string[] {
  const shape = ASPECT_SHAPES.get(aspectName);
  const problems: string[] = [];
  if (shape) check(shape, value, '', problems);
  return problems;
}

function check(shape: Shape, value: unknown, path: string, out: string[]): void {
  const problem = (message: string): void => {
    out.push(`ERROR :: ${path || '/'} :: ${message}`);
  };
  const notBacked = (type: string): void => problem(`${json(value)} is not backed by ${/^[ai]/.test(type) ? 'an' : 'a'} ${type}`);

  if (typeof shape === 'string') {
    if (!PRIMITIVE_OK[shape](value)) notBacked(shape);
  } else if ('enum' in shape) {
    if (typeof value !== 'string' || !shape.enum.includes(value)) problem(`${json(value)} is not an enum symbol`);
  } else if ('array' in shape) {
    if (!Array.isArray(value)) return notBacked('array');
    value.forEach((item, i) => check(shape.array, item, `${path}/${i}`, out));
  } else if ('map' in shape) {
    if (!isObject(value)) return notBacked('map');
    for (const [key, item] of Object.entries(value)) check(shape.map, item, `${path}/${key}`, out);
  } else if ('union' in shape) {
    const keys = isObject(value) ? Object.keys(value) : [];
    if (keys.length !== 1) return problem(`${json(value)} is not a member of union`);
    const member = keys[0]!;
    // hasOwn: a member named like an Object.prototype property (`toString`) must not match.
    if (!Object.hasOwn(shape.union, member)) return problem(`${json(member)} is not a member of union`);
    check(shape.union[member]!, (value as JsonObject)[member], `${path}/${member}`, out);
  } else {
    if (!isObject(value)) return notBacked('record');
    for (const [declared, fieldShape] of Object.entries(shape.record)) {
      const required = declared.endsWith('!');
      const name = required ? declared.slice(0, -1) : declared;
      const field = value[name];
      const fieldPath = `${path}/${name}`;
      if (field === undefined) {
        if (required) out.push(`ERROR :: ${fieldPath} :: field is required but not found and has no default value`);
      } else if (field !== null || required) {
        // Python emitters write `null` for unset optional fields; for a required one, null is a wrong-type value.
        check(fieldShape, field, fieldPath, out);
      }
    }
  }
}
