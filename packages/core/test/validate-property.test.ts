import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATAHUB_MODEL, ENTITY_SPECS, findEntity, validateAspect, type TypedUrnData, type TypeRef } from '../src/index';
import { checkAspectFully } from '../src/validate';

/**
 * Values generated from each aspect's shape in DataHub's model — required fields always, optional ones or not (or
 * null), enum symbols, union members under their keys, URNs of the entity types a field admits — are accepted, and
 * read back equal (validation is pure: accepted, and JSON carries them unchanged).
 */

const MODEL = DATAHUB_MODEL;
const token = fc.stringMatching(/^[a-z][a-z0-9_.-]{0,8}$/);
const latin1 = fc.integer({ min: 0, max: 255 }).map((code) => String.fromCharCode(code));
const noNegativeZero = (x: number) => (Object.is(x, -0) ? 0 : x);

const PRIMITIVES: Record<string, fc.Arbitrary<unknown>> = {
  string: fc.string({ maxLength: 12 }),
  boolean: fc.boolean(),
  int: fc.integer(),
  long: fc.maxSafeInteger(),
  float: fc.float({ noNaN: true, noDefaultInfinity: true }).map(noNegativeZero),
  double: fc.double({ noNaN: true, noDefaultInfinity: true }).map(noNegativeZero),
  bytes: fc.string({ unit: latin1, maxLength: 8 }),
  null: fc.constant(null),
};

const ENTITY_TYPES = ENTITY_SPECS.map((e) => e.name);

/**
 * A URN of one of `types`, its parts fitting the entity's key (typed parts when `typed` names them); undefined when
 * no URN can be valid there (DataHub's DatasetFieldUrn names `datasetField`, which its registry lacks).
 */
function urnOf(types: readonly string[], typed: TypedUrnData | undefined): fc.Arbitrary<string> | undefined {
  const candidates = (typed ? [typed.entityType] : types).filter((type) => findEntity(type) !== undefined);
  if (!candidates.length) return undefined;
  return fc.constantFrom(...candidates).chain((type) => {
    const size = findEntity(type)!.keyFields.length;
    const parts = typed ? typed.parts.map(partOf) : Array.from({ length: size }, () => token);
    if (parts.some((p) => p === undefined)) return fc.constant('urn:li:impossible');
    return fc
      .tuple(...(parts as fc.Arbitrary<string>[]))
      .map((values) => (values.length === 1 ? `urn:li:${type}:${values[0]}` : `urn:li:${type}:(${values.join(',')})`));
  });
}

function partOf(type: TypeRef): fc.Arbitrary<string> | undefined {
  const data = typeof type === 'string' ? MODEL.types[type] : undefined;
  if (data && 'enum' in data) return fc.constantFrom(...data.enum);
  if (data && 'typeref' in data && data.typedUrn) return urnOf([], data.typedUrn);
  return token;
}

class Generator {
  private readonly destinations = new Map<string, readonly string[][]>();
  private readonly validated = new Map<string, readonly string[]>();

  constructor(aspect: string) {
    const data = MODEL.aspects[aspect]!;
    for (const r of data.relationships ?? []) this.destinations.set(r.path, [...(this.destinations.get(r.path) ?? []), [...r.entityTypes]]);
    for (const v of data.urnValidations ?? []) if (v.entityTypes.length) this.validated.set(v.path, v.entityTypes);
  }

  /** Values of a type at a schema path; undefined when the model admits none (only empty lists, absent fields). */
  of(type: TypeRef, path: string): fc.Arbitrary<unknown> | undefined {
    if (typeof type === 'string') return PRIMITIVES[type] ?? this.named(type, path);
    if ('array' in type) {
      const item = this.of(type.array, `${path}/*`);
      return item ? fc.array(item, { maxLength: 2 }) : fc.constant([]);
    }
    if ('map' in type) {
      const value = this.of(type.map, `${path}/*`);
      return value ? fc.dictionary(token, value, { maxKeys: 2 }) : fc.constant({});
    }
    const members = type.union.flatMap((m): fc.Arbitrary<unknown>[] => {
      if (m.key === 'null') return [fc.constant(null)];
      const value = this.of(m.type, `${path}/${m.key}`);
      return value ? [value.map((v) => ({ [m.key]: v }))] : [];
    });
    return members.length ? fc.oneof(...members) : undefined;
  }

  private named(name: string, path: string): fc.Arbitrary<unknown> | undefined {
    const data = MODEL.types[name]!;
    if ('enum' in data) return fc.constantFrom(...data.enum);
    if ('fixed' in data) return fc.string({ unit: latin1, minLength: data.fixed, maxLength: data.fixed });
    if ('record' in data) {
      const fields: Record<string, fc.Arbitrary<unknown>> = {};
      const required: string[] = [];
      for (const f of data.record) {
        const value = this.of(f.type, `${path}/${f.name}`);
        const optional = f.optional || f.default !== undefined;
        if (!value) {
          if (optional) continue;
          return undefined;
        }
        fields[f.name] = optional ? fc.oneof({ arbitrary: value, weight: 4 }, { arbitrary: fc.constant(null), weight: 1 }) : value;
        if (!optional) required.push(f.name);
      }
      return fc.record(fields, { requiredKeys: required });
    }
    if (name.endsWith('Urn') && data.typeref === 'string') {
      const admitted = [...(this.destinations.get(path) ?? []), ...(this.validated.has(path) ? [this.validated.get(path)!] : [])];
      const types = admitted.reduce<string[]>((left, list) => left.filter((t) => list.includes(t)), ENTITY_TYPES);
      return urnOf(types, data.typedUrn);
    }
    return this.of(data.typeref, path);
  }
}

const ASPECTS = Object.keys(MODEL.aspects);
const arbitraries = new Map<string, fc.Arbitrary<unknown>>();
const valueOf = (aspect: string) => {
  let arbitrary = arbitraries.get(aspect);
  if (!arbitrary) {
    arbitrary = new Generator(aspect).of(MODEL.aspects[aspect]!.class, '');
    if (!arbitrary) throw new Error(`no value of ${aspect} can be valid`);
    arbitraries.set(aspect, arbitrary);
  }
  return arbitrary;
};

describe('validateAspect: any value of an aspect’s shape', () => {
  it('is accepted and reads back equal, for every aspect of the registry', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ASPECTS).chain((aspect) => valueOf(aspect).map((value) => [aspect, value] as const)),
        ([aspect, value]) => {
          expect(validateAspect(aspect, value), aspect).toEqual([]);
          expect(JSON.parse(JSON.stringify(value))).toEqual(value);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

/** Every place inside a value a mutation may change: [container, key] pairs of its objects and arrays. */
function placesIn(value: unknown, into: [Record<string, unknown> | unknown[], string | number][] = []) {
  if (typeof value !== 'object' || value === null) return into;
  for (const [key, item] of Object.entries(value)) {
    into.push([value as Record<string, unknown>, Array.isArray(value) ? Number(key) : key]);
    placesIn(item, into);
  }
  return into;
}

describe('validateAspect: its shortcut for valid values agrees with the walk that names problems', () => {
  it('answers exactly what the full walk answers, for values of every aspect with one thing changed', () => {
    const replacement = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double(),
      fc.string({ maxLength: 6 }),
      fc.constant('urn:li:corpuser:x'),
      fc.constant('urn:li:nothing:x'),
      fc.constant([]),
      fc.constant({}),
      fc.dictionary(token, fc.string({ maxLength: 3 }), { maxKeys: 2 }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...ASPECTS).chain((aspect) => valueOf(aspect).map((value) => [aspect, value] as const)),
        fc.nat(),
        replacement,
        ([aspect, value], at, changed) => {
          const places = placesIn(value);
          if (places.length) {
            const [container, key] = places[at % places.length]!;
            if (changed === undefined && !Array.isArray(container)) delete container[key as string];
            else (container as Record<string | number, unknown>)[key] = changed;
          }
          expect(validateAspect(aspect, value), aspect).toEqual(checkAspectFully(aspect, value));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
