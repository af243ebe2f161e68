import type { ApiContext, EntityParent, Resolvers } from '@mds/schema';
import { pageOrRefuse, refWithKey, urnOf, type Json, type Loaders, type Parent } from './common-fields';

/** DataHub's page of runs when the caller names none. */
const DEFAULT_COUNT = 20;
/** The edges read to order one entity's runs by creation time (DataHub orders them in its search index). */
const MAX_RUNS = 10_000;

interface PageArgs {
  start?: number | null;
  count?: number | null;
}

const createdTime = (properties: Json | undefined) => {
  const created = properties?.created;
  return typeof created === 'object' && created !== null && typeof (created as Json).time === 'number'
    ? ((created as Json).time as number)
    : undefined;
};

/**
 * `Dataset.runs` and `DataJob.runs` (DataHub's EntityRunsResolver, DataJobRunsResolver): the process instances
 * pointing at the entity — through `Consumes` (their inputs), `Produces` (their outputs) or `InstanceOf` (their
 * parent template) — newest `dataProcessInstanceProperties.created` first (runs without it last, then by urn), one page.
 */
export function runsResolvers(loaders: Loaders): Resolvers {
  const runs = async (urn: string, type: string, args: PageArgs, context: ApiContext) => {
    const page = pageOrRefuse(args.start ?? 0, args.count ?? DEFAULT_COUNT);
    const { reader } = loaders(context);
    const edges = await reader.relationships(urn, { direction: 'INCOMING', types: [type], start: 0, count: MAX_RUNS });
    const instances = [...new Set(edges.relationships.map((edge) => edge.entity))].filter((u) =>
      u.startsWith('urn:li:dataProcessInstance:'),
    );
    const stored = await reader.latest(instances, ['dataProcessInstanceProperties', 'status']);
    const live = instances
      .filter((u) => stored.get(u)?.get('status')?.value?.removed !== true)
      .map((u) => ({ urn: u, created: createdTime(stored.get(u)?.get('dataProcessInstanceProperties')?.value) }))
      .sort((a, b) => (b.created ?? -Infinity) - (a.created ?? -Infinity) || (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
    return {
      count: page.count,
      start: page.start,
      total: live.length,
      runs: live
        .slice(page.start, page.start + page.count)
        .map((run) => refWithKey(run.urn) as EntityParent | undefined)
        .filter((ref) => ref !== undefined),
    };
  };
  return {
    Dataset: {
      runs: (parent: Parent, args: PageArgs & { direction: 'INCOMING' | 'OUTGOING' }, context: ApiContext) =>
        runs(urnOf(parent), args.direction === 'OUTGOING' ? 'Produces' : 'Consumes', args, context),
    },
    DataJob: {
      runs: (parent: Parent, args: PageArgs, context: ApiContext) => runs(urnOf(parent), 'InstanceOf', args, context),
    },
  };
}
