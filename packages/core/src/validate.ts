import { MODEL } from './model/data';
import type { AspectData, FieldData, TypeRef, UrnValidationData } from './model/types';
import { UrnError, parseUrn } from './urn';
import { valueUrnProblem } from './urn-value';

/**
 * Aspect values checked against DataHub's model as DataHub validates an ingested aspect (Pegasus's
 * ValidateDataAgainstSchema with RequiredMode CAN_BE_ABSENT_IF_HAS_DEFAULT, its EntityRegistryUrnValidator on every
 * `…Urn` typeref, then the `@UrnValidation` plugin). Each aspect's shape is compiled once into a tree of closures.
 *
 * Where mds differs, on purpose: unknown fields are kept (DataHub trims them; mds stores the value as sent); `null`
 * for an optional field or one with a default is accepted (Python emitters write it); numbers are not coerced —
 * a fraction for an int or long, a non-finite number, or one outside its type's range is refused rather than cut.
 */

type JsonObject = Record<string, unknown>;
/** The problem of a leaf value (a primitive, an enum symbol, a URN), or undefined when it is fine. */
type Leaf = (value: unknown) => string | undefined;
/** Appends `ERROR :: <path> :: <message>` lines for the problems of a value at `path`. */
type Check = (value: unknown, path: string, out: string[]) => void;
/**
 * Each type compiles to two walks: `valid`, which answers whether a value has no problem at all and allocates nothing
 * on the way (no path, no message), and `check`, which names every problem. Ingestion runs `valid` alone for the
 * values it accepts (nearly all), and `check` only for a value `valid` refused.
 */
interface Node {
  readonly leaf?: Leaf;
  readonly valid: (value: unknown) => boolean;
  readonly check: Check;
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A value as the message shows it: JSON, or the number's own text when JSON has none (NaN, Infinity). */
const shown = (value: unknown): string =>
  typeof value === 'number' && !Number.isFinite(value) ? String(value) : (JSON.stringify(value) ?? String(value));
const article = (type: string) => (type === 'bytes' ? '' : /^[aeiou]/.test(type) ? 'an ' : 'a ');
const notBacked = (value: unknown, type: string) => `${shown(value)} is not backed by ${article(type)}${type}`;

const INT_MIN = -(2 ** 31);
const INT_LIMIT = 2 ** 31;
const LONG_MIN = -(2 ** 63);
const LONG_LIMIT = 2 ** 63;
const FLOAT_MAX = 3.4028234663852886e38;
/** How many URN texts each URN-typed field remembers the verdict on (then it forgets them all and starts over). */
const URNS_JUDGED_PER_FIELD = 1024;
/** Code points 0-255 only: any character above U+00FF fails. */
const LATIN1 = /^[^\u0100-\uffff]*$/;

/** A number of an integral type: integral, finite, within the type's range. */
const integral =
  (type: string, min: number, limit: number): Leaf =>
  (v) => {
    if (typeof v !== 'number') return notBacked(v, type);
    if (!Number.isFinite(v)) return `${shown(v)} is not a finite number`;
    if (!Number.isInteger(v)) return notBacked(v, type);
    return v >= min && v < limit ? undefined : `${v} is out of the range of ${article(type)}${type}`;
  };

const PRIMITIVE: Readonly<Record<string, Leaf>> = {
  string: (v) => (typeof v === 'string' ? undefined : notBacked(v, 'string')),
  boolean: (v) => (typeof v === 'boolean' ? undefined : notBacked(v, 'boolean')),
  int: integral('int', INT_MIN, INT_LIMIT),
  long: integral('long', LONG_MIN, LONG_LIMIT),
  float: (v) => {
    if (typeof v !== 'number') return notBacked(v, 'float');
    if (!Number.isFinite(v)) return `${shown(v)} is not a finite number`;
    return Math.abs(v) <= FLOAT_MAX ? undefined : `${v} is out of the range of a float`;
  },
  double: (v) => {
    if (typeof v !== 'number') return notBacked(v, 'double');
    return Number.isFinite(v) ? undefined : `${shown(v)} is not a finite number`;
  },
  // Pegasus JSON writes bytes as a string of code points 0-255 (Avro's encoding).
  bytes: (v) => {
    if (typeof v !== 'string') return notBacked(v, 'bytes');
    return LATIN1.test(v) ? undefined : `${shown(v)} is not a valid string representation of bytes`;
  },
  null: (v) => (v === null ? undefined : notBacked(v, 'null')),
};

const leafNode = (leaf: Leaf): Node => ({
  leaf,
  valid: (value) => leaf(value) === undefined,
  check: (value, path, out) => {
    const problem = leaf(value);
    if (problem !== undefined) out.push(`ERROR :: ${path || '/'} :: ${problem}`);
  },
});

/** Field names an object inherits (`toString`): those must be looked up as own properties. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Compiles the types one aspect reaches; URN checks depend on the aspect's `@Relationship` paths. */
class Compiler {
  private readonly destinations = new Map<string, string[][]>();

  constructor(aspect: AspectData) {
    for (const r of aspect.relationships ?? []) {
      const list = this.destinations.get(r.path) ?? [];
      list.push([...r.entityTypes]);
      this.destinations.set(r.path, list);
    }
  }

  /** A type at a schema path (`/upstreams/*\/dataset`: `*` for array items and map values). */
  node(type: TypeRef, schemaPath: string): Node {
    if (typeof type === 'string') {
      const primitive = PRIMITIVE[type];
      return primitive ? leafNode(primitive) : this.named(type, schemaPath);
    }
    if ('array' in type) return this.array(this.node(type.array, `${schemaPath}/*`));
    if ('map' in type) return this.map(this.node(type.map, `${schemaPath}/*`));
    return this.union(type.union.map((m) => [m.key, this.node(m.type, `${schemaPath}/${m.key}`)] as const));
  }

  private named(name: string, schemaPath: string): Node {
    const data = MODEL.types[name];
    if (!data) throw new Error(`the model lacks type ${name}`);
    if ('record' in data) return this.record(data.record, schemaPath);
    if ('enum' in data) {
      const symbols = new Set(data.enum);
      return leafNode((v) => (typeof v === 'string' && symbols.has(v) ? undefined : `${shown(v)} is not an enum symbol`));
    }
    if ('fixed' in data) {
      const size = data.fixed;
      return leafNode((v) => {
        if (typeof v !== 'string') return notBacked(v, 'fixed');
        if (v.length !== size) return `${shown(v)} length (${v.length}) is inconsistent with expected fixed size of ${size}`;
        return LATIN1.test(v) ? undefined : `${shown(v)} is not a valid string representation of bytes`;
      });
    }
    const target = this.node(data.typeref, schemaPath);
    // DataHub validates every typeref whose name ends in `Urn` as a URN of its registry.
    if (!name.endsWith('Urn') || !target.leaf) return target;
    const text = target.leaf;
    const destinations = this.destinations.get(schemaPath) ?? [];
    const typed = data.typedUrn;
    // A batch names the same URNs over and over (its platform, owners, tags): each text is judged once per field.
    const judged = new Map<string, string | undefined>();
    return leafNode((v) => {
      const problem = text(v);
      if (problem !== undefined) return problem;
      const urn = v as string;
      if (judged.has(urn)) return judged.get(urn);
      const found = valueUrnProblem(urn, name, typed, destinations, schemaPath);
      if (judged.size >= URNS_JUDGED_PER_FIELD) judged.clear();
      judged.set(urn, found);
      return found;
    });
  }

  private record(fields: readonly FieldData[], schemaPath: string): Node {
    const compiled = fields.map((f) => ({
      name: f.name,
      inherited: INHERITED.has(f.name),
      required: !f.optional && f.default === undefined,
      nullable: f.optional === true || f.default !== undefined,
      node: this.node(f.type, `${schemaPath}/${f.name}`),
    }));
    const fieldOf = (value: JsonObject, f: (typeof compiled)[number]) =>
      f.inherited && !Object.hasOwn(value, f.name) ? undefined : value[f.name];
    return {
      valid: (value) => {
        if (!isObject(value)) return false;
        for (const f of compiled) {
          const field = fieldOf(value, f);
          if (field === undefined ? f.required : (field !== null || !f.nullable) && !f.node.valid(field)) return false;
        }
        return true;
      },
      check: (value, path, out) => {
        if (!isObject(value)) {
          out.push(`ERROR :: ${path || '/'} :: ${notBacked(value, 'record')}`);
          return;
        }
        for (const f of compiled) {
          const field = fieldOf(value, f);
          if (field === undefined) {
            if (f.required) out.push(`ERROR :: ${path}/${f.name} :: field is required but not found and has no default value`);
          } else if (field !== null || !f.nullable) {
            if (f.node.leaf) {
              const problem = f.node.leaf(field);
              if (problem !== undefined) out.push(`ERROR :: ${path}/${f.name} :: ${problem}`);
            } else f.node.check(field, `${path}/${f.name}`, out);
          }
        }
      },
    };
  }

  private array(item: Node): Node {
    return {
      valid: (value) => {
        if (!Array.isArray(value)) return false;
        for (let i = 0; i < value.length; i++) if (!item.valid(value[i])) return false;
        return true;
      },
      check: (value, path, out) => {
        if (!Array.isArray(value)) {
          out.push(`ERROR :: ${path || '/'} :: ${notBacked(value, 'array')}`);
          return;
        }
        for (let i = 0; i < value.length; i++) item.check(value[i], `${path}/${i}`, out);
      },
    };
  }

  private map(values: Node): Node {
    return {
      valid: (value) => {
        if (!isObject(value)) return false;
        for (const key in value) if (Object.hasOwn(value, key) && !values.valid(value[key])) return false;
        return true;
      },
      check: (value, path, out) => {
        if (!isObject(value)) {
          out.push(`ERROR :: ${path || '/'} :: ${notBacked(value, 'map')}`);
          return;
        }
        for (const key of Object.keys(value)) values.check(value[key], `${path}/${key}`, out);
      },
    };
  }

  private union(members: readonly (readonly [string, Node])[]): Node {
    const byKey = new Map(members);
    const nullable = byKey.has('null');
    const single = (value: unknown): string | undefined => {
      if (!isObject(value)) return undefined;
      let only: string | undefined;
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (only !== undefined) return undefined;
        only = key;
      }
      return only;
    };
    return {
      valid: (value) => {
        if (value === null && nullable) return true;
        const key = single(value);
        const member = key === undefined ? undefined : byKey.get(key);
        return member !== undefined && member.valid((value as JsonObject)[key!]);
      },
      check: (value, path, out) => {
        if (value === null && nullable) return;
        const keys = isObject(value) ? Object.keys(value) : [];
        if (keys.length !== 1) {
          out.push(`ERROR :: ${path || '/'} :: ${shown(value)} is not a member of union`);
          return;
        }
        const member = byKey.get(keys[0]!);
        if (!member) out.push(`ERROR :: ${path || '/'} :: ${shown(keys[0])} is not a member of union`);
        else member.check((value as JsonObject)[keys[0]!], `${path}/${keys[0]}`, out);
      },
    };
  }
}

/** The string values at an `@UrnValidation` path: the field reached through nested objects, or each string of a list. */
function valuesAt(value: unknown, path: string): string[] {
  let current = value;
  for (const segment of path.slice(1).split('/')) {
    if (!isObject(current)) return [];
    current = current[segment];
  }
  if (typeof current === 'string') return [current];
  return Array.isArray(current) ? current.filter((v): v is string => typeof v === 'string') : [];
}

/** `@UrnValidation` (DataHub's UrnAnnotationValidator): strict URN rules and allowed entity types. `exist` needs a store. */
function urnValidationProblems(specs: readonly UrnValidationData[], value: unknown, out: string[]): void {
  for (const spec of specs) {
    for (const text of valuesAt(value, spec.path)) {
      if (spec.strict) {
        try {
          parseUrn(text);
        } catch (error) {
          if (!(error instanceof UrnError)) throw error;
          out.push(`ERROR :: ${spec.path} :: ${error.message}`);
          continue;
        }
      }
      const type = /^urn:li:([^:]+):/.exec(text)?.[1];
      if (spec.entityTypes.length && (type === undefined || !spec.entityTypes.includes(type))) {
        out.push(
          `ERROR :: ${spec.path} :: Invalid entity type urn validation failure (Required: [${spec.entityTypes.join(', ')}]). Urn: ${text}`,
        );
      }
    }
  }
}

/**
 * An aspect's compiled shape: `valid` for the common case, `check` to name the problems of a value it refuses; its
 * `@UrnValidation` rules, checked on a value of the right shape.
 */
interface CompiledAspect {
  readonly valid: (value: unknown) => boolean;
  readonly check: (value: unknown, out: string[]) => void;
  readonly urnValidations: readonly UrnValidationData[];
}
const compiled = new Map<string, CompiledAspect>();

function compile(aspectName: string): CompiledAspect | undefined {
  const aspect = MODEL.aspects[aspectName];
  if (!aspect) return undefined;
  const root = new Compiler(aspect).node(aspect.class, '');
  const specs = aspect.urnValidations ?? [];
  return { valid: root.valid, check: (value, out) => root.check(value, '', out), urnValidations: specs };
}

/**
 * Problems of `value` as the aspect `aspectName` (versioned, time-series or key), as `ERROR :: /<path> :: <msg>`
 * lines in Pegasus's wording; [] when it is valid. An aspect name the registry lacks has no shape: [] (callers check
 * names first).
 */
export function validateAspect(aspectName: string, value: unknown): string[] {
  let shape = compiled.get(aspectName);
  if (!shape) {
    shape = compile(aspectName);
    if (!shape) return [];
    compiled.set(aspectName, shape);
  }
  const problems: string[] = [];
  if (!shape.valid(value)) shape.check(value, problems);
  if (problems.length === 0 && shape.urnValidations.length) urnValidationProblems(shape.urnValidations, value, problems);
  return problems;
}

/**
 * The problems of `value` as the aspect, always found by the walk that names them (never the `valid` shortcut):
 * what `validateAspect` answers, for tests that hold the two walks to agreeing.
 */
export function checkAspectFully(aspectName: string, value: unknown): string[] {
  const shape = compiled.get(aspectName) ?? compile(aspectName);
  if (!shape) return [];
  const problems: string[] = [];
  shape.check(value, problems);
  if (problems.length === 0 && shape.urnValidations.length) urnValidationProblems(shape.urnValidations, value, problems);
  return problems;
}
