import type { AspectData, EntityData, FieldData, ModelData, RenderSpecData, TypeData, TypeRef, TypedUrnData } from '../src/model/types';
import { relationshipsOfRecord, searchableOfRecord, urnValidationsOfRecord } from './annotations';
import { PdlError, type Json, type PdlFile, type Props } from './pdl';
import { Schemas, type RDecl, type RType } from './schema';

/** One entity of the registry file, as the generator reads it. */
export interface RegistryEntity {
  readonly name: string;
  readonly category?: string;
  readonly keyAspect: string;
  readonly aspects: readonly string[];
}

export interface ModelInputs {
  readonly source: { readonly repository: string; readonly commit: string };
  readonly entities: readonly RegistryEntity[];
  /** Entity name → GraphQL `EntityType`, for the entities DataHub's GraphQL maps. */
  readonly graphqlTypes: Readonly<Record<string, string>>;
  /** PDL files by their path under the pegasus root. */
  readonly files: ReadonlyMap<string, PdlFile>;
}

const TYPED_URN_VALIDATOR = 'com.linkedin.common.validator.TypedUrnValidator';
const isObject = (value: Json | undefined): value is { [key: string]: Json } =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
type RecordDecl = RDecl & { kind: 'record' };

/** The records that are aspects (`@Aspect = {"name": …}`), by aspect name. */
export function aspectRecords(schemas: Schemas): Map<string, RecordDecl> {
  const byName = new Map<string, RecordDecl>();
  for (const name of schemas.names()) {
    const decl = schemas.get(name);
    const aspect = decl.props.Aspect;
    if (decl.kind !== 'record' || !isObject(aspect) || typeof aspect.name !== 'string') continue;
    if (byName.has(aspect.name)) throw new PdlError(`aspect ${aspect.name} is declared by ${byName.get(aspect.name)!.name} and ${name}`);
    byName.set(aspect.name, decl);
  }
  return byName;
}

/** The MCE snapshot records (`@Entity = {"name": …}` on `…Snapshot`), by entity name. */
export function snapshotRecords(schemas: Schemas): Map<string, RecordDecl> {
  const byEntity = new Map<string, RecordDecl>();
  for (const name of schemas.names()) {
    const decl = schemas.get(name);
    const entity = decl.props.Entity;
    if (decl.kind === 'record' && isObject(entity) && typeof entity.name === 'string') byEntity.set(entity.name, decl);
  }
  return byEntity;
}

function typeRef(type: RType): TypeRef {
  switch (type.k) {
    case 'primitive':
    case 'named':
      return type.name;
    case 'array':
      return { array: typeRef(type.items) };
    case 'map':
      return { map: typeRef(type.values) };
    case 'union':
      return { union: type.members.map((m) => ({ key: m.key, type: typeRef(m.type) })) };
  }
}

/** DataHub's model as data: the registry's entities and aspects, and every named type their aspects reach. */
export function buildModel(inputs: ModelInputs): ModelData {
  const schemas = new Schemas(inputs.files);
  const aspectsByName = aspectRecords(schemas);
  const snapshots = snapshotRecords(schemas);
  const keyAspects = new Set(inputs.entities.map((e) => e.keyAspect));

  const classOfAspect = new Map<string, string>();
  const aspectOfClass = new Map<string, string>();
  for (const [aspect, record] of aspectsByName) {
    classOfAspect.set(aspect, record.name);
    aspectOfClass.set(record.name, aspect);
  }
  const recordOf = (aspect: string, entity: string): RecordDecl => {
    const record = aspectsByName.get(aspect);
    if (!record) throw new PdlError(`entity ${entity} lists aspect ${aspect}, which no PDL record declares`);
    return record;
  };

  const aspects: Record<string, AspectData> = {};
  const entities: EntityData[] = inputs.entities.map((entity) => {
    for (const aspect of [entity.keyAspect, ...entity.aspects]) {
      if (aspects[aspect]) continue;
      const record = recordOf(aspect, entity.name);
      const annotation = record.props.Aspect as Props;
      const kind = keyAspects.has(aspect) ? 'key' : annotation.type === 'timeseries' ? 'timeseries' : 'versioned';
      const relationships = relationshipsOfRecord(schemas, record);
      const searchable = searchableOfRecord(schemas, record);
      const urnValidations = urnValidationsOfRecord(schemas, record);
      aspects[aspect] = {
        class: record.name,
        kind,
        ...(relationships.length ? { relationships } : {}),
        ...(searchable.length ? { searchable } : {}),
        ...(urnValidations.length ? { urnValidations } : {}),
        ...(annotation.autoRender === true ? { autoRender: true as const } : {}),
        ...(renderSpecOf(annotation.renderSpec) ?? {}),
      };
    }
    const snapshot = snapshots.get(entity.name);
    return {
      name: entity.name,
      ...(entity.category ? { category: entity.category } : {}),
      keyAspect: entity.keyAspect,
      aspects: entity.aspects,
      graphqlType: inputs.graphqlTypes[entity.name] ?? 'OTHER',
      ...(snapshot ? { snapshot: { class: snapshot.name, aspects: snapshotAspects(schemas, snapshot, aspectOfClass) } } : {}),
    };
  });

  const roots = [...Object.values(aspects).map((a) => a.class), ...[...snapshots.values()].map((s) => s.name)];
  const types = typesOf(schemas, roots);
  return { source: inputs.source, entities, aspects, types };
}

/** `@Aspect.renderSpec`'s three strings (how DataHub's UI shows an auto-rendered aspect), when the annotation has one. */
function renderSpecOf(spec: unknown): { renderSpec: RenderSpecData } | undefined {
  if (!spec || typeof spec !== 'object') return undefined;
  const fields = spec as Record<string, unknown>;
  const pick = (name: string) => (typeof fields[name] === 'string' ? { [name]: fields[name] } : {});
  return { renderSpec: { ...pick('displayType'), ...pick('displayName'), ...pick('key') } };
}

/** The aspects a snapshot's `aspects: array[<X>Aspect]` union admits, by aspect name. */
function snapshotAspects(schemas: Schemas, snapshot: RecordDecl, aspectOfClass: ReadonlyMap<string, string>): string[] {
  const field = snapshot.fields.find((f) => f.name === 'aspects');
  const items = field?.type.k === 'array' ? schemas.deref(field.type.items) : undefined;
  if (items?.k !== 'union') throw new PdlError(`${snapshot.name}: aspects is no array of a union`);
  return items.members.map((m) => {
    const name = m.type.k === 'named' ? aspectOfClass.get(m.type.name) : undefined;
    if (!name) throw new PdlError(`${snapshot.name}: member ${m.key} is no aspect`);
    return name;
  });
}

/** Every named type the roots reach, as data, by full name (sorted). */
function typesOf(schemas: Schemas, roots: readonly string[]): Record<string, TypeData> {
  const byJavaClass = new Map<string, string>();
  for (const name of schemas.names()) {
    const decl = schemas.get(name);
    const java = decl.props.java;
    if (decl.kind === 'typeref' && isObject(java) && typeof java.class === 'string') byJavaClass.set(java.class, name);
  }
  const pending = [...schemas.closure(roots)];
  const types: Record<string, TypeData> = {};
  while (pending.length) {
    const name = pending.pop()!;
    if (types[name]) continue;
    const decl = schemas.get(name);
    types[name] = typeData(decl, (part) => {
      const target = part === 'string' ? part : (byJavaClass.get(part) ?? (schemas.has(part) ? part : undefined));
      if (!target) throw new PdlError(`${name}: typed urn part ${part} names no known type`);
      if (target !== 'string') pending.push(...schemas.closure([target]));
      return target;
    });
  }
  return Object.fromEntries(Object.entries(types).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function typeData(decl: RDecl, urnPart: (javaOrPdlName: string) => string): TypeData {
  switch (decl.kind) {
    case 'record':
      return {
        record: decl.fields.map((f): FieldData => ({
          name: f.name,
          type: typeRef(f.type),
          ...(f.optional ? { optional: true } : {}),
          ...(f.default === undefined ? {} : { default: f.default }),
        })),
      };
    case 'enum':
      return { enum: decl.symbols };
    case 'fixed':
      return { fixed: decl.size };
    case 'typeref': {
      const java = isObject(decl.props.java) ? decl.props.java : {};
      const validator = isObject(decl.props.validate) ? decl.props.validate[TYPED_URN_VALIDATOR] : undefined;
      let typedUrn: TypedUrnData | undefined;
      if (isObject(validator) && typeof validator.entityType === 'string' && Array.isArray(validator.fields)) {
        const parts = validator.fields.map((f) => {
          const type = isObject(f) && typeof f.type === 'string' ? f.type : undefined;
          if (!type) throw new PdlError(`${decl.name}: a typed urn field without a type`);
          return urnPart(type);
        });
        typedUrn = { entityType: validator.entityType, parts };
      }
      return {
        typeref: typeRef(decl.ref),
        ...(typeof java.class === 'string' ? { javaClass: java.class } : {}),
        ...(typeof java.coercerClass === 'string' ? { coercerClass: java.coercerClass } : {}),
        ...(typedUrn ? { typedUrn } : {}),
      };
    }
  }
}
