import { isJsonObject } from '@mds/core';
import type { ApiContext, EntityParent, Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { assertionsOf, runEventsOf } from './assertions';
import type { Json, Loaders } from './common-fields';
import { incidentsOn } from './incidents';

/** How many of an asset's assertions its health looks at (DataHub's EntityHealthResolver reads one page of 500). */
const MAX_ASSERTIONS = 500;
/** The asset types whose GraphQL type has `health` (DataHub's schema). */
const WITH_HEALTH = ['Dataset', 'Chart', 'Dashboard', 'DataFlow', 'DataJob'];

const lastUpdatedOf = (info: Json) =>
  isJsonObject(info.status) && isJsonObject(info.status.lastUpdated) && typeof info.status.lastUpdated.time === 'number'
    ? info.status.lastUpdated.time
    : undefined;

/**
 * An asset's `health`, computed as DataHub's EntityHealthResolver computes it from what is stored: an INCIDENTS badge
 * (FAIL while an incident raised on it is ACTIVE, else PASS), then an ASSERTIONS badge when one of its assertions has
 * a completed run (FAIL naming the assertions whose latest completed run did not succeed, else PASS).
 */
export function healthResolvers(service: EntityService, loaders: Loaders): Resolvers {
  const incidentsHealth = async (urn: string, context: ApiContext) => {
    const active = (await incidentsOn(loaders, urn, context))
      .filter(({ info }) => isJsonObject(info.status) && info.status.state === 'ACTIVE')
      .sort((a, b) => (lastUpdatedOf(b.info) ?? 0) - (lastUpdatedOf(a.info) ?? 0) || (a.urn < b.urn ? -1 : 1));
    const latest = active[0];
    if (!latest) return { type: 'INCIDENTS', status: 'PASS' };
    const at = lastUpdatedOf(latest.info) ?? null;
    return {
      type: 'INCIDENTS',
      status: 'FAIL',
      reportedAt: at ?? 0,
      message: `${active.length} active incident${active.length > 1 ? 's' : ''}`,
      activeIncidentHealthDetails: {
        latestIncidentUrn: latest.urn,
        latestIncidentTitle: typeof latest.info.title === 'string' ? latest.info.title : null,
        lastActivityAt: at,
        count: active.length,
      },
      causes: ['ACTIVE_INCIDENTS'],
    };
  };

  const assertionsHealth = async (urn: string, context: ApiContext) => {
    const edges = await assertionsOf(loaders, urn, context, 0, MAX_ASSERTIONS);
    const assertions = [...new Set(edges.relationships.map((r) => r.entity))];
    if (assertions.length === 0) return null;
    const latest = await Promise.all(
      assertions.map(async (assertion) => {
        const [run] = await runEventsOf(service, assertion, { status: 'COMPLETE', limit: 1 }, context);
        return { assertion, run };
      }),
    );
    const ran = latest.filter((l) => l.run !== undefined);
    if (ran.length === 0) return null;
    const failing = ran.filter(({ run }) => !(isJsonObject(run!.result) && run!.result.type === 'SUCCESS')).map((l) => l.assertion);
    return failing.length
      ? { type: 'ASSERTIONS', status: 'FAIL', message: `${failing.length} of ${assertions.length} assertions are failing`, causes: failing }
      : { type: 'ASSERTIONS', status: 'PASS', message: 'All assertions are passing' };
  };

  const health = async (parent: EntityParent, _args: unknown, context: ApiContext) => {
    const [incidents, assertions] = await Promise.all([incidentsHealth(parent.urn, context), assertionsHealth(parent.urn, context)]);
    return assertions ? [incidents, assertions] : [incidents];
  };
  return Object.fromEntries(WITH_HEALTH.map((type) => [type, { health }]));
}
