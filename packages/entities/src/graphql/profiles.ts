import { isJsonObject } from '@mds/core';
import { badRequest, type AndFilterInput, type FacetFilterInput, type ApiContext, type OperationType, type Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import type { GraphQLResolveInfo } from 'graphql';
import { urnOf, type Json, type Parent } from './common-fields';
import { toGraphQL, type TypeRules } from './mapping/convert';
import { graphqlReader } from './mutation-support';

/** DataHub's default `limit` of time-series reads. */
const DEFAULT_LIMIT = 10_000;
const OPERATION_TYPES: readonly OperationType[] = ['INSERT', 'UPDATE', 'DELETE', 'CREATE', 'ALTER', 'DROP', 'CUSTOM', 'UNKNOWN'];

/** The member of `values` that `value` is, if it is one (an enum of the SDL from a stored string). */
const member = <T extends string>(values: readonly T[], value: unknown): T | undefined => values.find((v) => v === value);

interface RangeArgs {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  filter?: { and: readonly FacetFilterInput[]; or?: readonly AndFilterInput[] | null } | null;
  limit?: number | null;
}

/**
 * How time-series points are read where DataHub's mappers differ from the record: DatasetProfileMapper leaves the
 * partition spec out; OperationMapper shows the partition of the spec.
 */
const PROFILE_RULES: TypeRules = {
  DatasetProfile: { partitionSpec: () => undefined },
  Operation: {
    partition: (v) => (isJsonObject(v.partitionSpec) ? v.partitionSpec.partition : undefined),
    operationType: (v) => member(OPERATION_TYPES, v.operationType) ?? 'UNKNOWN',
  },
};
const scope = (parent: Parent, info: GraphQLResolveInfo) => ({ urn: urnOf(parent), schema: info.schema, rules: PROFILE_RULES });

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
      datasetProfiles: async (parent: Parent, args: RangeArgs, context: ApiContext, info: GraphQLResolveInfo) =>
        toGraphQL(await points(urnOf(parent), 'datasetProfile', args, context), info.returnType, scope(parent, info)) as Json[],
      operations: async (parent: Parent, args: RangeArgs, context: ApiContext, info: GraphQLResolveInfo) => {
        const found = await points(urnOf(parent), 'operation', args, context);
        const updated = (v: Json) => (typeof v.lastUpdatedTimestamp === 'number' ? v.lastUpdatedTimestamp : 0);
        return toGraphQL(
          found.sort((a, b) => updated(b) - updated(a)),
          info.returnType,
          scope(parent, info),
        ) as Json[];
      },
    },
  };
  return resolvers;
}

/** How a criterion's condition compares a point's value (as text; ranges as numbers) with one of the values given. */
const CONDITIONS: Readonly<Record<string, (found: string, value: string) => boolean>> = {
  EQUAL: (found, value) => found === value,
  IN: (found, value) => found === value,
  IEQUAL: (found, value) => found.toLowerCase() === value.toLowerCase(),
  START_WITH: (found, value) => found.startsWith(value),
  END_WITH: (found, value) => found.endsWith(value),
  CONTAIN: (found, value) => found.includes(value),
  GREATER_THAN: (found, value) => Number(found) > Number(value),
  GREATER_THAN_OR_EQUAL_TO: (found, value) => Number(found) >= Number(value),
  LESS_THAN: (found, value) => Number(found) < Number(value),
  LESS_THAN_OR_EQUAL_TO: (found, value) => Number(found) <= Number(value),
};

/**
 * A point matches when one and-group's criteria all hold (a dotted field compared with any of the values by the
 * criterion's condition, EQUAL by default; EXISTS: the field is there); no group: every point.
 */
export function criteria(groups: readonly AndFilterInput[]): (point: Json) => boolean {
  const tests = groups.map((group) =>
    (group.and ?? []).map((c) => {
      const condition = c.condition ?? 'EQUAL';
      const compare = CONDITIONS[condition];
      if (!compare && condition !== 'EXISTS') throw badRequest(`Unsupported filter condition ${condition}`);
      const values = c.values ?? (c.value == null ? [] : [c.value]);
      return (point: Json) => {
        const found = c.field.split('.').reduce<unknown>((at, key) => (isJsonObject(at) ? at[key] : undefined), point);
        const hit = found !== undefined && found !== null && (!compare || values.some((value) => compare(String(found), value)));
        return c.negated ? !hit : hit;
      };
    }),
  );
  return tests.length === 0 ? () => true : (point) => tests.some((group) => group.every((test) => test(point)));
}
