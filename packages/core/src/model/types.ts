/**
 * The shape of the generated model data (`datahub-model.json`): facts read from DataHub's entity registry and PDL
 * schemas by `generator/` — names, kinds, types and paths — and nothing else.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A primitive's name, a named type's full name, or a composite type. A map's keys are always strings. */
export type TypeRef =
  | string
  | { readonly array: TypeRef }
  | { readonly map: TypeRef }
  | { readonly union: readonly { readonly key: string; readonly type: TypeRef }[] };

export interface FieldData {
  readonly name: string;
  readonly type: TypeRef;
  readonly optional?: true;
  readonly default?: JsonValue;
}

/** What a typed URN typeref (`DatasetUrn`) requires: its entity type and the type of each key part. */
export interface TypedUrnData {
  readonly entityType: string;
  readonly parts: readonly TypeRef[];
}

export type TypeData =
  | { readonly record: readonly FieldData[] }
  | { readonly enum: readonly string[] }
  | { readonly fixed: number }
  | {
      readonly typeref: TypeRef;
      /** The `java.class` a typeref binds to (`com.linkedin.common.urn.DatasetUrn`), when it names one. */
      readonly javaClass?: string;
      readonly coercerClass?: string;
      readonly typedUrn?: TypedUrnData;
    };

export interface RelationshipData {
  /** Where the URN sits in the aspect: `/inputEdges/*\/destinationUrn` (`*` for any array item or map value). */
  readonly path: string;
  readonly name: string;
  readonly entityTypes: readonly string[];
  readonly isUpstream: boolean;
  readonly isLineage: boolean;
  readonly createdOn?: string;
  readonly createdActor?: string;
  readonly updatedOn?: string;
  readonly updatedActor?: string;
  readonly properties?: string;
  readonly via?: string;
}

export interface SearchableData {
  /** Where the value sits in the aspect (a map field's path for a map-valued field). */
  readonly path: string;
  readonly fieldName: string;
  readonly fieldType: string;
  readonly queryByDefault: boolean;
  readonly enableAutocomplete: boolean;
  readonly addToFilters: boolean;
  readonly addHasValuesToFilters: boolean;
  readonly filterNameOverride?: string;
  readonly hasValuesFilterNameOverride?: string;
  readonly boostScore: number;
  readonly hasValuesFieldName?: string;
  readonly numValuesFieldName?: string;
  readonly weightsPerFieldValue?: { readonly [value: string]: number };
  readonly fieldNameAliases?: readonly string[];
  readonly includeQueryEmptyAggregation: boolean;
  /** Whether DataHub also indexes when the field last changed, and under which name. */
  readonly includeSystemModifiedAt: boolean;
  readonly systemModifiedAtFieldName?: string;
}

/** An `@UrnValidation` field: `path` as DataHub's validator walks the value (nested records only, no arrays). */
export interface UrnValidationData {
  readonly path: string;
  readonly exist: boolean;
  readonly strict: boolean;
  readonly entityTypes: readonly string[];
}

export type AspectKindData = 'key' | 'versioned' | 'timeseries';

export interface AspectData {
  /** The PDL record's full name. */
  readonly class: string;
  readonly kind: AspectKindData;
  readonly relationships?: readonly RelationshipData[];
  readonly searchable?: readonly SearchableData[];
  readonly urnValidations?: readonly UrnValidationData[];
  /** `@Aspect.autoRender`: DataHub's UI shows the aspect in a generic tab (`aspects(input: {autoRenderOnly: true})`). */
  readonly autoRender?: true;
  readonly renderSpec?: RenderSpecData;
}

/** `@Aspect.renderSpec`. */
export interface RenderSpecData {
  readonly displayType?: string;
  readonly displayName?: string;
  readonly key?: string;
}

export interface EntityData {
  readonly name: string;
  readonly category?: string;
  readonly keyAspect: string;
  /** Versioned and time-series aspects, in the registry's order. */
  readonly aspects: readonly string[];
  /** GraphQL's `EntityType` (`OTHER` where DataHub's GraphQL maps none). */
  readonly graphqlType: string;
  /** The MCE snapshot record and the aspects its union admits, for the entities MCEs carry. */
  readonly snapshot?: { readonly class: string; readonly aspects: readonly string[] };
}

export interface ModelData {
  readonly source: { readonly repository: string; readonly commit: string };
  readonly entities: readonly EntityData[];
  readonly aspects: { readonly [name: string]: AspectData };
  readonly types: { readonly [fullName: string]: TypeData };
}
