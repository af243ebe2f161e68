import type { ApiContext, Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { dashboardUsage } from '../service/usage-stats';
import { urnOf, type Parent } from './common-fields';
import { userRef, windowPoints } from './usage';

/** DataHub's time-series result limits (timeseriesAspectService.limit.results: apiDefault, max; not strict). */
const DEFAULT_LIMIT = 5000;
const MAX_LIMIT = 10_000;

const numberOr = (value: unknown) => (typeof value === 'number' ? value : null);

interface UsageArgs {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  limit?: number | null;
}

/**
 * `Dashboard.usageStats` (DataHub's DashboardUsageStatsResolver with DashboardUsageStatsUtils and
 * DashboardUsageMetricMapper): the points of `dashboardUsageStatistics` within the range (either end optional); those
 * with an `eventGranularity` make the daily buckets and the users (`service/usage-stats.ts`), the others are the
 * absolute metrics, newest first, at most `limit` (5000 when absent, negative or above 10000, as DataHub's config). As
 * DataHub's, no privilege is asked.
 */
export function dashboardUsageResolvers(service: EntityService): Resolvers {
  return {
    Dashboard: {
      usageStats: async (parent: Parent, args: UsageArgs, context: ApiContext) => {
        const urn = urnOf(parent);
        // Every point of the range: the buckets aggregate all of them, as Elasticsearch's aggregations do.
        const points = await windowPoints(service, context, {
          entityType: 'dashboard',
          aspect: 'dashboardUsageStatistics',
          urn,
          startTimeMillis: args.startTimeMillis ?? undefined,
          endTimeMillis: args.endTimeMillis ?? undefined,
        });
        const limit = args.limit == null || args.limit < 0 || args.limit > MAX_LIMIT ? DEFAULT_LIMIT : args.limit;
        const usage = dashboardUsage(points.filter((point) => point.eventGranularity != null));
        return {
          buckets: usage.buckets.map((bucket) => ({
            bucket: bucket.bucket,
            duration: 'DAY' as const,
            resource: urn,
            metrics: {
              uniqueUserCount: bucket.metrics.uniqueUserCount ?? null,
              viewsCount: bucket.metrics.viewsCount ?? null,
              executionsCount: bucket.metrics.executionsCount ?? null,
            },
          })),
          aggregations: {
            uniqueUserCount: usage.aggregations.uniqueUserCount,
            viewsCount: usage.aggregations.viewsCount ?? null,
            executionsCount: usage.aggregations.executionsCount ?? null,
            users: usage.aggregations.users.map((user) => ({
              user: userRef(user.user) ?? null,
              usageCount: user.usageCount ?? null,
              executionsCount: user.executionsCount ?? null,
              viewsCount: null,
            })),
          },
          metrics: points
            .filter((point) => point.eventGranularity == null)
            .slice(0, limit)
            .map((point) => ({
              timestampMillis: numberOr(point.timestampMillis) ?? 0,
              lastViewed: numberOr(point.lastViewedAt),
              viewsCount: numberOr(point.viewsCount),
              executionsCount: numberOr(point.executionsCount),
              favoritesCount: numberOr(point.favoritesCount),
            })),
        };
      },
    },
  };
}
