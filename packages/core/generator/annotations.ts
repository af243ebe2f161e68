import type { RelationshipData, SearchableData, UrnValidationData } from '../src/model/types';
import { PdlError, type Json, type Props } from './pdl';
import type { RDecl, RField, RType, Schemas } from './schema';

/**
 * DataHub's field annotations (`@Searchable`, `@Relationship`, `@UrnValidation`) as it reads them from an aspect's
 * schema: Pegasus resolves each annotation to the primitive it lands on — a field's own annotation, or an override
 * `{"/path/*\/to": {...}}` written on an enclosing field, the outermost winning — and DataHub's extractors then walk
 * the resolved schema. This module walks an aspect record the same way and yields the resolved facts with their paths.
 */

const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An annotation on its way to the field it resolves on: the path still to match, and its value. */
interface Entry {
  readonly remaining: readonly string[];
  readonly value: Json;
}

/** What an extractor sees at one node of the walk (every node below the aspect record). */
interface Visit {
  /** The path components from the aspect root (`*` for array items and map values, `$key` for map keys). */
  readonly path: readonly string[];
  /** The type at this node followed through typerefs. */
  readonly deref: RType;
  readonly derefDecl?: RDecl;
  /** The annotation resolved on the primitive this node reaches (through typerefs), if it is one. */
  readonly resolved: Json | undefined;
  readonly enclosing: RField;
  /** The typeref this node is the target of, when it is one. */
  readonly parentTyperef?: RDecl;
  /** Whether `map` occurs in Pegasus's traverse path here (a map on the way, or the node itself). */
  readonly underMap: boolean;
}

class Walker {
  constructor(
    private readonly schemas: Schemas,
    private readonly ns: string,
    private readonly onVisit: (visit: Visit) => void,
  ) {}

  private isLeaf(type: RType): boolean {
    const deref = this.schemas.deref(type);
    if (deref.k === 'primitive') return true;
    if (deref.k !== 'named') return false;
    const decl = this.schemas.get(deref.name);
    return decl.kind === 'enum' || decl.kind === 'fixed';
  }

  /** Entries an annotation written on a field or typeref contributes: itself on a leaf, overrides otherwise. */
  private own(props: Props, leaf: boolean, where: string): Entry[] {
    const value = props[this.ns];
    if (value === undefined) return [];
    if (leaf) return [{ remaining: [], value }];
    if (!isObject(value)) throw new PdlError(`${where}: @${this.ns} on a complex type must map paths to values`);
    // A key that is no path is an error Pegasus reports and skips (DataHub's @UrnValidation on an array field is one:
    // its extractor reads the field's annotation itself).
    return Object.entries(value).flatMap(([key, v]) => (key.startsWith('/') ? [{ remaining: key.slice(1).split('/'), value: v }] : []));
  }

  private static matching(entries: readonly Entry[], segment: string): Entry[] {
    return entries.filter((e) => e.remaining[0] === segment).map((e) => ({ remaining: e.remaining.slice(1), value: e.value }));
  }

  /** The entries that reach the leaf a type names, through its typerefs and the leaf's own annotation. */
  private leafEntries(type: RType, entries: readonly Entry[]): Entry[] | undefined {
    if (!this.isLeaf(type)) return undefined;
    const all = [...entries];
    let current = type;
    while (current.k === 'named') {
      const decl = this.schemas.get(current.name);
      if (decl.kind === 'typeref') {
        all.push(...this.own(decl.props, true, decl.name));
        current = decl.ref;
      } else {
        all.push(...this.own(decl.props, true, decl.name));
        break;
      }
    }
    return all;
  }

  walkRecord(record: RDecl & { kind: 'record' }): void {
    this.fields(record, [], [], new Set([record.name]), false);
  }

  private fields(record: RDecl & { kind: 'record' }, path: string[], entries: readonly Entry[], ancestors: Set<string>, underMap: boolean) {
    for (const field of record.fields) {
      const childEntries = [
        ...Walker.matching(entries, field.name),
        ...this.own(field.props, this.isLeaf(field.type), `${record.name}.${field.name}`),
      ];
      this.node(field.type, [...path, field.name], childEntries, field, undefined, ancestors, underMap || field.name === 'map');
    }
  }

  private node(
    type: RType,
    path: string[],
    entries: readonly Entry[],
    enclosing: RField,
    parentTyperef: RDecl | undefined,
    ancestors: Set<string>,
    underMapBefore: boolean,
  ): void {
    const deref = this.schemas.deref(type);
    const derefDecl = deref.k === 'named' ? this.schemas.get(deref.name) : undefined;
    const underMap = underMapBefore || this.schemas.memberKey(type) === 'map';
    const leaf = this.leafEntries(type, entries);
    this.onVisit({ path, deref, derefDecl, resolved: leaf?.[0]?.value, enclosing, parentTyperef, underMap });

    const unresolved = entries.some((e) => e.remaining.length > 0);
    if (type.k === 'named') {
      const decl = this.schemas.get(type.name);
      if (ancestors.has(decl.name) && !unresolved) return;
      const inner = new Set(ancestors).add(decl.name);
      if (decl.kind === 'typeref') {
        const refEntries = [...entries, ...this.own(decl.props, this.isLeaf(decl.ref), decl.name)];
        this.node(decl.ref, path, refEntries, enclosing, decl, inner, underMap);
      } else if (decl.kind === 'record') {
        this.fields(decl, path, entries, inner, underMap);
      }
    } else if (type.k === 'array') {
      this.node(type.items, [...path, '*'], Walker.matching(entries, '*'), enclosing, undefined, ancestors, underMap);
    } else if (type.k === 'map') {
      const key: RType = { k: 'primitive', name: 'string' };
      this.node(key, [...path, '$key'], Walker.matching(entries, '$key'), enclosing, undefined, ancestors, underMap);
      this.node(type.values, [...path, '*'], Walker.matching(entries, '*'), enclosing, undefined, ancestors, underMap);
    } else if (type.k === 'union') {
      for (const m of type.members) {
        this.node(m.type, [...path, m.key], Walker.matching(entries, m.key), enclosing, undefined, ancestors, underMap || m.key === 'map');
      }
    }
  }
}

const pathText = (path: readonly string[]) => `/${path.join('/')}`;

/** The resolved properties of the node's dereferenced schema, as DataHub's FieldSpecUtils picks them. */
function resolvedProperties(visit: Visit, ns: string, fallback: Props): Props {
  if (visit.resolved !== undefined) return { [ns]: visit.resolved };
  const own = visit.derefDecl?.props ?? {};
  return Object.keys(own).length ? own : fallback;
}

function walk(schemas: Schemas, record: RDecl & { kind: 'record' }, ns: string, onVisit: (visit: Visit) => void): void {
  new Walker(schemas, ns, onVisit).walkRecord(record);
}

/** First spec per path wins, as DataHub's AspectSpec keys them. */
function firstPerPath<T extends { path: string }>(specs: readonly T[]): T[] {
  const byPath = new Map<string, T>();
  for (const spec of specs) if (!byPath.has(spec.path)) byPath.set(spec.path, spec);
  return [...byPath.values()];
}

const optionalString = (map: { [key: string]: Json }, key: string) => (typeof map[key] === 'string' ? { [key]: map[key] } : {});
const flag = (map: { [key: string]: Json }, key: string, fallback: boolean) => (typeof map[key] === 'boolean' ? map[key] : fallback);

export function relationshipsOfRecord(schemas: Schemas, record: RDecl & { kind: 'record' }): RelationshipData[] {
  const specs: RelationshipData[] = [];
  walk(schemas, record, 'Relationship', (visit) => {
    const value = resolvedProperties(visit, 'Relationship', {}).Relationship;
    if (value === undefined || value === null) return;
    const where = `${record.name} ${pathText(visit.path)}`;
    if (visit.deref.k !== 'primitive' || visit.deref.name !== 'string') throw new PdlError(`${where}: @Relationship on a non-string`);
    if (!isObject(value) || typeof value.name !== 'string') throw new PdlError(`${where}: @Relationship without a name`);
    const entityTypes = Array.isArray(value.entityTypes) ? value.entityTypes.filter((t): t is string => typeof t === 'string') : [];
    specs.push({
      path: pathText(visit.path),
      name: value.name,
      entityTypes,
      isUpstream: flag(value, 'isUpstream', true),
      isLineage: flag(value, 'isLineage', false),
      ...optionalString(value, 'createdOn'),
      ...optionalString(value, 'createdActor'),
      ...optionalString(value, 'updatedOn'),
      ...optionalString(value, 'updatedActor'),
      ...optionalString(value, 'properties'),
      ...optionalString(value, 'via'),
    });
  });
  return firstPerPath(specs);
}

const URN_JAVA_CLASS = 'com.linkedin.common.urn.Urn';
const SECONDARY_URN_TYPES = new Set(['URN', 'URN_PARTIAL']);
const QUERY_BY_DEFAULT_TYPES = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM', 'URN', 'URN_PARTIAL']);
const FIELD_TYPES = new Set([
  'KEYWORD',
  'TEXT',
  'TEXT_PARTIAL',
  'BROWSE_PATH',
  'URN',
  'URN_PARTIAL',
  'BOOLEAN',
  'COUNT',
  'DATETIME',
  'OBJECT',
  'BROWSE_PATH_V2',
  'WORD_GRAM',
  'DOUBLE',
  'MAP_ARRAY',
]);

/** DataHub's field type when the annotation names none, from the schema type. */
function defaultFieldType(visit: Visit): string {
  if (visit.deref.k === 'primitive') {
    if (visit.deref.name === 'int') return 'COUNT';
    if (visit.deref.name === 'float' || visit.deref.name === 'double') return 'DOUBLE';
  }
  return visit.deref.k === 'map' ? 'KEYWORD' : 'TEXT';
}

/** The field name a path gives when none is annotated: its last field (`/tags/*` → tags). */
function schemaFieldName(path: readonly string[]): string {
  const last = path.at(-1)!;
  return last === '*' ? path.at(-2)! : last;
}

export function searchableOfRecord(schemas: Schemas, record: RDecl & { kind: 'record' }): SearchableData[] {
  const specs: SearchableData[] = [];
  const pathOfName = new Map<string, string>();
  walk(schemas, record, 'Searchable', (visit) => {
    const primary = visit.enclosing.props.Searchable;
    let annotation: Json | undefined;
    if (primary !== undefined && visit.deref.k === 'map' && isObject(primary) && Object.keys(primary).length) {
      annotation = Object.values(primary)[0];
    } else if (visit.underMap) {
      return;
    } else {
      const props = resolvedProperties(visit, 'Searchable', visit.enclosing.props);
      const isUrn = visit.parentTyperef?.props.java !== undefined && (visit.parentTyperef.props.java as Props).class === URN_JAVA_CLASS;
      annotation = props.Searchable;
      if (isUrn && primary !== undefined && isObject(annotation)) {
        const fieldType = typeof annotation.fieldType === 'string' ? annotation.fieldType : 'URN';
        if (SECONDARY_URN_TYPES.has(fieldType)) {
          const boost = typeof annotation.boostScore === 'number' ? annotation.boostScore : 1;
          // DataHub multiplies in single precision (a float factor).
          annotation = { ...annotation, boostScore: Math.fround(Math.fround(boost) * Math.fround(0.1)) };
        }
      }
    }
    if (annotation === undefined || annotation === null) return;
    const complex = visit.deref.k !== 'primitive';
    const valid = !complex || visit.deref.k === 'map' || visit.derefDecl?.kind === 'enum';
    if (!valid) return;
    const path = pathText(visit.path);
    if (!isObject(annotation)) throw new PdlError(`${record.name} ${path}: @Searchable is not an object`);
    const fieldType = typeof annotation.fieldType === 'string' ? annotation.fieldType : defaultFieldType(visit);
    if (!FIELD_TYPES.has(fieldType)) throw new PdlError(`${record.name} ${path}: unknown search field type ${fieldType}`);
    let fieldName = typeof annotation.fieldName === 'string' ? annotation.fieldName : schemaFieldName(visit.path);
    const seenAt = pathOfName.get(fieldName);
    if (seenAt !== undefined && seenAt !== path) {
      // Two fields of one aspect under one name: the later is named after its path (`/tags/*/tag` → tags__tag).
      const renamed = path.replaceAll('/', '_').replaceAll('*', '').replace(/^_/, '');
      const renamedAt = pathOfName.get(renamed);
      if (renamedAt !== undefined && renamedAt !== path) throw new PdlError(`${record.name}: two searchable fields named ${fieldName}`);
      fieldName = renamed;
    }
    pathOfName.set(fieldName, path);
    const weights = isObject(annotation.weightsPerFieldValue) ? annotation.weightsPerFieldValue : undefined;
    const aliases = Array.isArray(annotation.fieldNameAliases)
      ? annotation.fieldNameAliases.filter((a): a is string => typeof a === 'string')
      : [];
    specs.push({
      path,
      fieldName,
      fieldType,
      queryByDefault: flag(annotation, 'queryByDefault', QUERY_BY_DEFAULT_TYPES.has(fieldType)),
      enableAutocomplete: flag(annotation, 'enableAutocomplete', false),
      addToFilters: flag(annotation, 'addToFilters', false),
      addHasValuesToFilters: flag(annotation, 'addHasValuesToFilters', false),
      ...optionalString(annotation, 'filterNameOverride'),
      ...optionalString(annotation, 'hasValuesFilterNameOverride'),
      boostScore: typeof annotation.boostScore === 'number' ? annotation.boostScore : 1,
      ...optionalString(annotation, 'hasValuesFieldName'),
      ...optionalString(annotation, 'numValuesFieldName'),
      ...(weights
        ? {
            weightsPerFieldValue: Object.fromEntries(
              Object.entries(weights).filter((e): e is [string, number] => typeof e[1] === 'number'),
            ),
          }
        : {}),
      ...(aliases.length ? { fieldNameAliases: aliases } : {}),
      includeQueryEmptyAggregation: flag(annotation, 'includeQueryEmptyAggregation', false),
      includeSystemModifiedAt: flag(annotation, 'includeSystemModifiedAt', false),
      ...optionalString(annotation, 'systemModifiedAtFieldName'),
    });
  });
  return firstPerPath(specs);
}

/**
 * `@UrnValidation` fields. DataHub's validator finds them by walking the value's nested objects (never into arrays),
 * so only fields reached through records count; their path has no `*`.
 */
export function urnValidationsOfRecord(schemas: Schemas, record: RDecl & { kind: 'record' }): UrnValidationData[] {
  const specs: UrnValidationData[] = [];
  walk(schemas, record, 'UrnValidation', (visit) => {
    const value = visit.enclosing.props.UrnValidation;
    if (!isObject(value) || visit.path.includes('*') || visit.path.includes('$key') || visit.path.at(-1) !== visit.enclosing.name) return;
    const entityTypes = Array.isArray(value.entityTypes) ? value.entityTypes.filter((t): t is string => typeof t === 'string') : [];
    specs.push({ path: pathText(visit.path), exist: flag(value, 'exist', true), strict: flag(value, 'strict', true), entityTypes });
  });
  return firstPerPath(specs);
}
