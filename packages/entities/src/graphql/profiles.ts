import { isJsonObject } from '@mds/core';
import {
  badRequest,
  type AndFilterInput,
  type FacetFilterInput,
  type ApiContext,
  type OperationSourceType,
  type OperationType,
  type PartitionType,
  type Resolvers,
} from '@mds/schema';
import type { EntityService } from '../service';
import { list, text, urnOf, type Json, type Parent } from './common-fields';
import { graphqlReader } from './mutation-support';

/** DataHub's default `limit` of time-series reads. */
const DEFAULT_LIMIT = 10_000;
const OPERATION_TYPES: readonly OperationType[] = ['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'DROP', 'CUSTOM', 'UNKNOWN'];
const SOURCE_TYPES: readonly OperationSourceType[] = ['DATA_PROCESS', 'DATA_PLATFORM', 'MANUAL'];
const PARTITION_TYPES: readonly PartitionType[] = ['FULL_TABLE', 'QUERY', 'PARTITION'];

/** The member of `values` that `value` is, if it is one (an enum of the SDL from a stored string). */
const member = <T extends string>(values: readonly T[], value: unknown): T | undefined => values.find((v) => v === value);

interface RangeArgs {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  filter?: { and: readonly FacetFilterInput[]; or?: readonly AndFilterInput[] | null } | null;
  limit?: number | null;
}

const numberOrNull = (value: unknown) => (typeof value === 'number' ? value : null);
const numberText = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : null);

/**
 * A dataset's `datasetProfiles` and `operations` (entities-api §9.2), read from the time-series store through the
 * entity service, which withholds profiles (an empty list, as DataHub's) from a caller without VIEW_DATASET_PROFILE
 * on the dataset.
 */
export function profileResolvers(service: EntityService): Resolvers {
  const points = async (urn: string, aspect: string, args: RangeArgs, context: ApiContext) => {
    const limit = args.limit ?? DEFAULT_LIMIT;
    if (!Number.isSafeInteger(limit) || limit < 1) throw badRequest("'limit' must be a positive integer");
    // `and` and each group of `or` ANDed: one group per group of `or`, each with `and`'s criteria added.
    const and = args.filter?.and ?? [];
    const ored = args.filter?.or?.length ? args.filter.or : [{ and: [] }];
    const matches = criteria(and.length ? ored.map((group) => ({ and: [...and, ...(group.and ?? [])] })) : (args.filter?.or ?? []));
    const found = await graphqlReader(service, context.actor).points({
      entityType: 'dataset',
      aspect,
      urn,
      startTimeMillis: args.startTimeMillis ?? undefined,
      endTimeMillis: args.endTimeMillis ?? undefined,
      limit,
    });
    return found.filter(matches);
  };

  const resolvers: Resolvers = {
    Dataset: {
      datasetProfiles: async (parent: Parent, args: RangeArgs, context: ApiContext) =>
        (await points(urnOf(parent), 'datasetProfile', args, context)).map(profile),
      operations: async (parent: Parent, args: RangeArgs, context: ApiContext) => {
        const found = (await points(urnOf(parent), 'operation', args, context)).map(operation);
        return found.sort((a, b) => b.lastUpdatedTimestamp - a.lastUpdatedTimestamp);
      },
    },
  };
  return resolvers;
}

function profile(v: Json) {
  const spec = isJsonObject(v.partitionSpec) ? v.partitionSpec : undefined;
  return {
    timestampMillis: numberOrNull(v.timestampMillis) ?? 0,
    rowCount: numberOrNull(v.rowCount),
    columnCount: numberOrNull(v.columnCount),
    sizeInBytes: numberOrNull(v.sizeInBytes),
    fieldProfiles: list(v.fieldProfiles).map((f) => ({
      fieldPath: text(f.fieldPath) ?? '',
      uniqueCount: numberOrNull(f.uniqueCount),
      uniqueProportion: numberOrNull(f.uniqueProportion),
      nullCount: numberOrNull(f.nullCount),
      nullProportion: numberOrNull(f.nullProportion),
      min: numberText(f.min),
      max: numberText(f.max),
      mean: numberText(f.mean),
      median: numberText(f.median),
      stdev: numberText(f.stdev),
      sampleValues: Array.isArray(f.sampleValues) ? f.sampleValues.map(String) : null,
    })),
    partitionSpec: spec ? { type: member(PARTITION_TYPES, spec.type) ?? 'PARTITION', partition: text(spec.partition) ?? '' } : null,
  };
}

function operation(v: Json) {
  const custom = isJsonObject(v.customProperties) ? v.customProperties : {};
  return {
    timestampMillis: numberOrNull(v.timestampMillis) ?? 0,
    lastUpdatedTimestamp: numberOrNull(v.lastUpdatedTimestamp) ?? 0,
    actor: text(v.actor),
    operationType: member(OPERATION_TYPES, v.operationType) ?? 'UNKNOWN',
    customOperationType: text(v.customOperationType),
    sourceType: member(SOURCE_TYPES, v.sourceType) ?? null,
    numAffectedRows: numberOrNull(v.numAffectedRows),
    affectedDatasets: Array.isArray(v.affectedDatasets) ? v.affectedDatasets.filter((d): d is string => typeof d === 'string') : null,
    partition: text(v.partition),
    customProperties: Object.entries(custom).map(([key, value]) => ({ key, value: text(value) })),
  };
}

/** A point matches when one and-group's criteria all hold (EQUAL on a dotted field); no group: every point. */
function criteria(groups: readonly AndFilterInput[]): (point: Json) => boolean {
  const tests = groups.map((group) =>
    (group.and ?? []).map((c) => {
      if (c.condition && c.condition !== 'EQUAL') throw badRequest(`Unsupported filter condition ${c.condition}`);
      const values = c.values ?? (c.value == null ? [] : [c.value]);
      return (point: Json) => {
        const found = c.field.split('.').reduce<unknown>((at, key) => (isJsonObject(at) ? at[key] : undefined), point);
        const hit = found !== undefined && values.includes(String(found));
        return c.negated ? !hit : hit;
      };
    }),
  );
  return tests.length === 0 ? () => true : (point) => tests.some((group) => group.every((test) => test(point)));
}
