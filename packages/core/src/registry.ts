import { MODEL } from './model/data';
import type { AspectData, RelationshipData, RenderSpecData, SearchableData, TypeData, UrnValidationData } from './model/types';
import { UrnError, makeUrn, parseUrn, urnTypeOf, type Urn } from './urn';

/** How an aspect is stored: the key (built from the URN), versioned (metadata_aspect_v2 rows), or time-series. */
export type AspectKind = 'key' | 'versioned' | 'timeseries';

export interface AspectSpec {
  readonly name: string;
  readonly kind: AspectKind;
  /** The PDL record's full class name, which wraps the value in `/aspects` reads and MCE snapshots. */
  readonly pdlClass: string;
  /** `@Aspect.autoRender`: DataHub's UI shows it in a generic tab. */
  readonly autoRender: boolean;
  /** `@Aspect.renderSpec`, how that tab shows it. */
  readonly renderSpec?: RenderSpecData;
}

export interface EntitySpec {
  /** The registry name, as in URNs and MCPs: `dataset`, `corpuser`, `corpGroup`, `dataPlatform`, … */
  readonly name: string;
  /** GraphQL's `EntityType`: `DATASET`, `CORP_USER`, … (`OTHER` where DataHub's GraphQL maps none). */
  readonly graphqlType: string;
  /** The registry's category (`core`, `internal`), where it names one. */
  readonly category?: string;
  readonly keyAspect: string;
  /** The key aspect's fields, in the order DataHub binds the URN's parts to them (EntityKeyUtils). */
  readonly keyFields: readonly string[];
  /** `com.linkedin.metadata.snapshot.<X>Snapshot`, for the entities MCEs carry. */
  readonly snapshotClass?: string;
  /** The aspects an MCE snapshot of this entity may carry (its aspect union's members), key first. */
  readonly snapshotAspects?: readonly string[];
  /** Every aspect the entity allows: its key, then versioned, then time-series (each in the registry's order). */
  readonly aspects: readonly string[];
}

const ASPECTS: ReadonlyMap<string, AspectSpec> = new Map(
  Object.entries(MODEL.aspects).map(([name, data]) => [
    name,
    {
      name,
      kind: data.kind,
      pdlClass: data.class,
      autoRender: data.autoRender === true,
      ...(data.renderSpec ? { renderSpec: data.renderSpec } : {}),
    },
  ]),
);

function recordFields(type: TypeData | undefined): readonly { name: string }[] {
  if (!type || !('record' in type)) throw new Error('a key aspect is no record');
  return type.record;
}

/** Every entity type of DataHub's registry, in the registry's order. */
export const ENTITY_SPECS: readonly EntitySpec[] = MODEL.entities.map((e) => {
  const ofKind = (kind: AspectKind) => e.aspects.filter((a) => ASPECTS.get(a)!.kind === kind);
  return {
    name: e.name,
    graphqlType: e.graphqlType,
    ...(e.category ? { category: e.category } : {}),
    keyAspect: e.keyAspect,
    keyFields: recordFields(MODEL.types[MODEL.aspects[e.keyAspect]!.class]).map((f) => f.name),
    ...(e.snapshot ? { snapshotClass: e.snapshot.class, snapshotAspects: e.snapshot.aspects } : {}),
    aspects: [e.keyAspect, ...ofKind('versioned'), ...ofKind('timeseries')],
  };
});

const byLowerName = new Map(ENTITY_SPECS.map((e) => [e.name.toLowerCase(), e]));
const allowed = new Map(ENTITY_SPECS.map((e) => [e.name, new Set(e.aspects)]));

/** The entity type by its registry name, matched case-insensitively (MCPs send `DATASET` or `dataset`). */
export function findEntity(name: string): EntitySpec | undefined {
  return byLowerName.get(name.toLowerCase());
}

/** The entity type of a urn, or undefined when the text is no valid urn or names a type the registry lacks. */
export function findEntityOfUrn(text: string): EntitySpec | undefined {
  const type = urnTypeOf(text);
  return type === undefined ? undefined : findEntity(type);
}

/** An aspect by its exact name, whichever entity it belongs to (aspect names are global in DataHub). */
export function aspectSpec(name: string): AspectSpec | undefined {
  return ASPECTS.get(name);
}

/** The aspect, when `entity` allows it. */
export function entityAspect(entity: EntitySpec, aspectName: string): AspectSpec | undefined {
  return allowed.get(entity.name)?.has(aspectName) ? ASPECTS.get(aspectName) : undefined;
}

/** The entity's time-series aspects, in registry order. */
export const timeseriesAspectsOf = (entity: EntitySpec): string[] => entity.aspects.filter((a) => ASPECTS.get(a)?.kind === 'timeseries');

/** The generated facts of an aspect: its `@Relationship`, `@Searchable` and `@UrnValidation` fields. */
export const aspectData = (name: string): AspectData | undefined => MODEL.aspects[name];
export type { RelationshipData, SearchableData, UrnValidationData };

/**
 * Key parts that are themselves urns of given types: the key aspect's `@Relationship` on that field (a data job's
 * `flow` IsPartOf a dataFlow, a feature table's `platform` a dataPlatform).
 */
const URN_KEY_PARTS: ReadonlyMap<string, ReadonlyMap<string, readonly string[]>> = new Map(
  ENTITY_SPECS.map((e) => [
    e.name,
    new Map(
      (MODEL.aspects[e.keyAspect]!.relationships ?? [])
        .filter((r) => r.path.lastIndexOf('/') === 0)
        .map((r) => [r.path.slice(1), r.entityTypes] as const),
    ),
  ]),
);

/** The key aspect's value from the URN's parts (positional, as DataHub's EntityKeyUtils binds them). */
export function keyAspectValue(entity: EntitySpec, urn: Urn): Record<string, string> {
  if (urn.parts.length !== entity.keyFields.length) {
    throw new UrnError('Failed to convert urn to entity key: urns parts and key fields do not have same length');
  }
  for (const [field, types] of URN_KEY_PARTS.get(entity.name) ?? []) {
    const part = urn.parts[entity.keyFields.indexOf(field)]!;
    const type = urnTypeOf(part);
    if (type === undefined || !types.includes(type)) {
      throw new UrnError(`Invalid urn: ${urn.text}\n Cause: its ${field} must be a ${types.join(' or ')} urn, not '${part}'`);
    }
  }
  return Object.fromEntries(entity.keyFields.map((field, i) => [field, urn.parts[i]!]));
}

/**
 * A URN as every part of mds takes it from a caller (ingestion, Rest.li, OpenAPI, GraphQL, tags): `parseUrn`'s rules,
 * and for an entity type the registry has, a key that binds to the type's key aspect (the number of parts, the parts
 * that are urns of given types), as ingestion's `keyAspectValue` demands. A UrnError says why not.
 */
export function parseEntityUrn(text: string): Urn {
  const urn = parseUrn(text);
  if (boundToKey.has(urn)) return urn;
  const entity = findEntity(urn.entityType);
  if (entity) keyAspectValue(entity, urn);
  boundToKey.add(urn);
  return urn;
}

/** Urns `parseEntityUrn` found binding to their key (`parseUrn` hands out the same object for the same text a while). */
const boundToKey = new WeakSet<Urn>();

/** The URN a key aspect value names (MCPs may send `entityKeyAspect` instead of `entityUrn`). */
export function urnFromKeyAspect(entity: EntitySpec, key: Record<string, unknown>): string {
  const parts = entity.keyFields.map((field) => key[field]);
  const missing = entity.keyFields.filter((_, i) => typeof parts[i] !== 'string' || parts[i] === '');
  if (missing.length) throw new UrnError(`Key aspect ${entity.keyAspect} lacks ${missing.join(', ')}`);
  return makeUrn(entity.name, parts as string[]);
}

const byClass = new Map([...ASPECTS.values()].map((a) => [a.pdlClass, a]));
const bySnapshot = new Map(ENTITY_SPECS.flatMap((e) => (e.snapshotClass ? [[e.snapshotClass, e] as const] : [])));
/** Ingestion files write Avro's `com.linkedin.pegasus2avro.` for Pegasus's `com.linkedin.`. */
const pegasusName = (className: string) => className.replace('com.linkedin.pegasus2avro.', 'com.linkedin.');

/** The aspect a PDL class name wraps (`com.linkedin.common.Ownership`), in Pegasus or Avro spelling. */
export const aspectOfClass = (className: string): AspectSpec | undefined => byClass.get(pegasusName(className));

/** The entity of an MCE snapshot class (`com.linkedin.metadata.snapshot.DatasetSnapshot`). */
export const entityOfSnapshotClass = (className: string): EntitySpec | undefined => bySnapshot.get(pegasusName(className));
