import { Privilege } from '@mds/auth';
import {
  badRequest,
  unprocessable,
  type ApiContext,
  type EntityParent,
  type OperationsAggregationsResult,
  type Resolvers,
} from '@mds/schema';
import { editPrivileges, SYSTEM_ACTOR, type EntityService } from '../service';
import {
  dashboardUsers,
  datasetUsage,
  operationsStats,
  rangeStart,
  topUsers,
  type OperationsAggregations,
  type UsageRange,
} from '../service/usage-stats';
import { refWithKey, urnArgument, urnOf, type Parent } from './common-fields';
import { graphqlReader } from './mutation-support';

/** Every point of a window: the statistics aggregate all of them, as Elasticsearch's aggregations do. */
const ALL_POINTS = Number.MAX_SAFE_INTEGER;
const DAY_MILLIS = 24 * 60 * 60 * 1000;
const RANGES: readonly UsageRange[] = ['DAY', 'WEEK', 'MONTH', 'QUARTER', 'HALF_YEAR', 'YEAR', 'ALL'];

/** DataHub's AuthorizationUtils.isViewDataset{Usage,Operations,Profile}Authorized: EDIT_ENTITY or the one privilege. */
const VIEW_USAGE = editPrivileges([Privilege.VIEW_DATASET_USAGE]);
const VIEW_OPERATIONS = editPrivileges([Privilege.VIEW_DATASET_OPERATIONS]);
const VIEW_PROFILE = editPrivileges([Privilege.VIEW_DATASET_PROFILE]);
/** ReportOperationResolver: EDIT_ENTITY or EDIT_ENTITY_OPERATIONS. */
const REPORT_OPERATION = editPrivileges([Privilege.EDIT_ENTITY_OPERATIONS]);

/** A user's object from its urn, with the username its urn gives. */
export const userRef = (urn: string) => refWithKey(urn) as EntityParent | undefined;

/** Every time-series point of an entity's aspect within a window (either end optional), newest first, as the viewer may read. */
export const windowPoints = (
  service: EntityService,
  context: ApiContext,
  query: { entityType: string; aspect: string; urn: string; startTimeMillis?: number; endTimeMillis?: number },
) => graphqlReader(service, context.actor).points({ ...query, limit: ALL_POINTS });
interface ReportOperationInput {
  urn: string;
  operationType: string;
  customOperationType?: string | null;
  sourceType: string;
  customProperties?: readonly { key: string; value?: string | null }[] | null;
  partition?: string | null;
  numAffectedRows?: number | null;
  timestampMillis?: number | null;
}

const users = (urns: readonly string[]) => urns.map(userRef).filter((ref) => ref !== undefined);

/** OperationsAggregationsResult as DataHub's mapper gives it: what was not counted is null; the map as entries (by key). */
const operationsResult = (totals: OperationsAggregations): OperationsAggregationsResult => ({
  totalOperations: totals.totalOperations ?? null,
  totalInserts: totals.totalInserts ?? null,
  totalUpdates: totals.totalUpdates ?? null,
  totalDeletes: totals.totalDeletes ?? null,
  totalCreates: totals.totalCreates ?? null,
  totalAlters: totals.totalAlters ?? null,
  totalDrops: totals.totalDrops ?? null,
  totalCustoms: totals.totalCustoms ?? null,
  customOperationsMap: totals.customOperationsMap?.map(([key, value]) => ({ key, value })) ?? null,
});

/**
 * A dataset's usageStats, statsSummary, operationsStats and timeseriesCapabilities, a dashboard's and a chart's
 * statsSummary (DataHub's DatasetUsageStatsResolver, DatasetStatsSummaryResolver, DatasetOperationsStatsResolver,
 * TimeseriesCapabilitiesResolver, DashboardStatsSummaryResolver, ChartStatsSummaryResolver), computed from the stored
 * time-series points by `service/usage-stats.ts`. `now` is the clock the ranges end at.
 */
export function usageResolvers(service: EntityService, now: () => number = Date.now): Resolvers {
  const points = (context: ApiContext, entityType: string, aspect: string, urn: string, startTimeMillis?: number, endTimeMillis?: number) =>
    windowPoints(service, context, { entityType, aspect, urn, startTimeMillis, endTimeMillis });
  const allowed = (context: ApiContext, privileges: typeof VIEW_USAGE, urn: string) => service.allows(context.actor, privileges, urn);

  /** UsageStatsJavaClient: from `startTimeMillis` when given, else from the range's start; to now; daily buckets. */
  const usage = async (context: ApiContext, urn: string, start: number, timeZone?: string) => {
    const end = now();
    return datasetUsage(await points(context, 'dataset', 'datasetUsageStatistics', urn, start, end), timeZone);
  };

  const oldest = async (context: ApiContext, urn: string, aspect: string, privileges: typeof VIEW_USAGE) => {
    if (!(await allowed(context, privileges, urn))) return null;
    const found = await points(context, 'dataset', aspect, urn);
    const times = found.map((p) => p.timestampMillis).filter((t): t is number => typeof t === 'number');
    return times.length ? Math.min(...times) : null;
  };

  return {
    Mutation: {
      reportOperation: async (_parent: unknown, { input }: { input: ReportOperationInput }, { actor }: ApiContext) => {
        const entityType = urnArgument(input.urn).entityType;
        await service.authorize(actor, REPORT_OPERATION, [input.urn]);
        if (entityType !== 'dataset') throw badRequest(`Unable to report operation. Invalid entity type ${entityType} provided.`);
        if (!service.storesPoints('dataset', 'operation'))
          throw unprocessable('reportOperation: this mds stores no time-series points (operation)');
        const timestampMillis = input.timestampMillis ?? now();
        const operation = {
          timestampMillis,
          lastUpdatedTimestamp: timestampMillis,
          actor: actor.urn,
          operationType: input.operationType,
          sourceType: input.sourceType,
          ...(input.customOperationType != null ? { customOperationType: input.customOperationType } : {}),
          ...(input.numAffectedRows != null ? { numAffectedRows: input.numAffectedRows } : {}),
          ...(input.partition != null ? { partitionSpec: { type: 'PARTITION', partition: input.partition } } : {}),
          ...(input.customProperties
            ? { customProperties: Object.fromEntries(input.customProperties.map((p) => [p.key, p.value ?? ''])) }
            : {}),
        };
        const proposal = {
          entityType: 'dataset',
          entityUrn: input.urn,
          aspectName: 'operation',
          changeType: 'UPSERT',
          aspect: { contentType: 'application/json', value: JSON.stringify(operation) },
        };
        // Decided above by the GraphQL policy (EDIT_ENTITY_OPERATIONS on the dataset), so written as the system.
        await service.ingest(SYSTEM_ACTOR, [{ proposal, place: { action: 'reportOperation', path: 'input' } }], { batch: false });
        return 'true';
      },
    },
    Dataset: {
      usageStats: async (
        parent: Parent,
        args: { range?: string | null; startTimeMillis?: number | null; timeZone?: string | null },
        context: ApiContext,
      ) => {
        const range = RANGES.find((r) => r === args.range);
        if (!range) throw badRequest("'range' is required: one of " + RANGES.join(', '));
        const urn = urnOf(parent);
        if (!(await allowed(context, VIEW_USAGE, urn))) return null;
        const result = await usage(context, urn, args.startTimeMillis ?? rangeStart(range, now()), args.timeZone ?? undefined);
        return {
          buckets: result.buckets.map((b) => ({ bucket: b.bucket, duration: 'DAY', resource: urn, metrics: b.metrics })),
          aggregations: {
            ...result.aggregations,
            users: result.aggregations.users.map((u) => ({
              user: userRef(u.user) ?? null,
              count: u.count,
              userEmail: u.userEmail ?? null,
            })),
          },
        };
      },
      statsSummary: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const urn = urnOf(parent);
        if (!(await allowed(context, VIEW_USAGE, urn))) return null;
        const { aggregations } = await usage(context, urn, rangeStart('MONTH', now()));
        return {
          queryCountLast30Days: aggregations.totalSqlQueries ?? null,
          uniqueUserCountLast30Days: aggregations.uniqueUserCount,
          topUsersLast30Days: users(topUsers(aggregations.users)),
        };
      },
      operationsStats: async (
        parent: Parent,
        args: { input?: { range?: string | null; timeZone?: string | null } | null },
        context: ApiContext,
      ) => {
        const urn = urnOf(parent);
        const range = RANGES.find((r) => r === args.input?.range) ?? 'MONTH';
        if (!(await allowed(context, VIEW_OPERATIONS, urn))) return { buckets: null, aggregations: null };
        const end = now();
        const found = await points(context, 'dataset', 'operation', urn, rangeStart(range, end), end);
        const stats = operationsStats(found, args.input?.timeZone ?? undefined);
        return {
          buckets: stats.buckets.map((b) => ({
            bucket: b.bucket,
            duration: 'DAY',
            resource: urn,
            aggregations: operationsResult(b.aggregations),
          })),
          aggregations: operationsResult(stats.aggregations),
        };
      },
      timeseriesCapabilities: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const urn = urnOf(parent);
        const [oldestOperationTime, oldestDatasetUsageTime, oldestDatasetProfileTime] = await Promise.all([
          oldest(context, urn, 'operation', VIEW_OPERATIONS),
          oldest(context, urn, 'datasetUsageStatistics', VIEW_USAGE),
          oldest(context, urn, 'datasetProfile', VIEW_PROFILE),
        ]);
        return { assetStats: { oldestOperationTime, oldestDatasetUsageTime, oldestDatasetProfileTime } };
      },
    },
    Chart: {
      // ChartStatsSummaryResolver answers null: DataHub computes no chart statistics yet.
      statsSummary: () => null,
    },
    Dashboard: {
      statsSummary: async (parent: Parent, _args: unknown, context: ApiContext) => {
        const urn = urnOf(parent);
        // DataHub has no dashboard privilege for this and asks VIEW_DATASET_USAGE.
        if (!(await allowed(context, VIEW_USAGE, urn))) return null;
        const end = now();
        const [all, recent] = await Promise.all([
          points(context, 'dashboard', 'dashboardUsageStatistics', urn),
          points(context, 'dashboard', 'dashboardUsageStatistics', urn, end - (31 * DAY_MILLIS + 1), end),
        ]);
        // The newest absolute point (no eventGranularity) gives the view count; bucketed points within 31 days the users.
        const absolute = all.find((p) => p.eventGranularity == null);
        const counts = dashboardUsers(recent.filter((p) => p.eventGranularity != null));
        return {
          viewCount: absolute ? (typeof absolute.viewsCount === 'number' ? absolute.viewsCount : null) : null,
          viewCountLast30Days: null,
          uniqueUserCountLast30Days: counts.length,
          topUsersLast30Days: users(counts.slice(0, 5).map((c) => c.user)),
        };
      },
    },
  };
}
