import { COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey } from './common-fields';
import { isJsonObject } from '@mds/core';
import { type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import { commonFields, list, text, type Loaders } from './common-fields';
import type { Json, TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping, type EntityScope } from './mapping/declare';

/** Incidents are found through their `IncidentOn` edges to the asset; at most this many per asset. */
const MAX_INCIDENTS = 10_000;
/** incidentInfo.priority (0 the most urgent) as DataHub's IncidentMapper names it. */
const PRIORITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;

const info = (entity: EntityScope) => entity.value('incidentInfo');
const priorityOf = (value: unknown) => (typeof value === 'number' ? PRIORITIES[value] : undefined);

/** How incidentInfo's records differ from their GraphQL types (DataHub's IncidentMapper). */
export const INCIDENT_RULES: TypeRules = {
  IncidentSource: { source: 'sourceUrn' },
};

/** `Incident` from its incidentInfo and globalTags aspects. */
export const INCIDENT_MAPPING: EntityMapping = {
  entity: 'incident',
  fields: {
    incidentType: (e) => info(e)?.type,
    customType: (e) => info(e)?.customType,
    title: (e) => info(e)?.title,
    description: (e) => info(e)?.description,
    entity: (e) => (Array.isArray(info(e)?.entities) ? (info(e)!.entities as unknown[])[0] : undefined),
    status: (e) => info(e)?.status,
    priority: (e) => priorityOf(info(e)?.priority),
    assignees: (e) => (Array.isArray(info(e)?.assignees) ? list(info(e)!.assignees).map((a) => a.actor) : undefined),
    source: (e) => info(e)?.source,
    startedAt: (e) => info(e)?.startedAt,
    created: (e) => info(e)?.created,
  },
};

interface IncidentArgs {
  state?: string | null;
  stage?: string | null;
  priority?: string | null;
  assigneeUrns?: readonly string[] | null;
  start?: number | null;
  count?: number | null;
}

/** Whether an incident's info matches the filters DataHub's EntityIncidentsResolver searches by. */
function matches(value: Json, args: IncidentArgs): boolean {
  const status = isJsonObject(value.status) ? value.status : {};
  if (args.state && status.state !== args.state) return false;
  if (args.stage && status.stage !== args.stage) return false;
  if (args.priority && priorityOf(value.priority) !== args.priority) return false;
  if (args.assigneeUrns?.length) {
    const assigned = new Set(list(value.assignees).map((a) => text(a.actor)));
    if (!args.assigneeUrns.some((urn) => assigned.has(urn))) return false;
  }
  return true;
}

const createdAt = (value: Json) => (isJsonObject(value.created) && typeof value.created.time === 'number' ? value.created.time : 0);

/** The incidents raised on an asset (their `IncidentOn` edges) whose incidentInfo is stored, with it. */
export async function incidentsOn(loaders: Loaders, urn: string, context: ApiContext): Promise<{ urn: string; info: Json }[]> {
  const { reader } = loaders(context);
  const edges = await reader.relationships(urn, { direction: 'INCOMING', types: ['IncidentOn'], start: 0, count: MAX_INCIDENTS });
  const found = await Promise.all(
    edges.relationships.map(async ({ entity }) => ({
      urn: entity,
      info: (await loaders(context).aspects(entity))?.get('incidentInfo')?.value,
    })),
  );
  return found.filter((i): i is { urn: string; info: Json } => i.info !== undefined);
}

/** The asset types whose GraphQL type lists its incidents (DataHub's schema). */
const WITH_INCIDENTS = ['Dataset', 'Chart', 'Dashboard', 'DataFlow', 'DataJob'];

/** `Incident`, and `incidents` of the assets: the incidents raised on one, newest first, as DataHub pages them. */
export function incidentResolvers(loaders: Loaders): Resolvers {
  const incidents = async (parent: EntityParent, args: IncidentArgs, context: ApiContext) => {
    // DataHub's EntityIncidentsResolver pages 0, 20 by default.
    const page = pageOrRefuse(args.start ?? 0, args.count ?? 20);
    const kept = (await incidentsOn(loaders, parent.urn, context))
      .filter((i) => matches(i.info, args))
      .sort((a, b) => createdAt(b.info) - createdAt(a.info) || (a.urn < b.urn ? -1 : 1));
    const shown = kept.slice(page.start, page.start + page.count);
    return {
      start: page.start,
      count: shown.length,
      total: kept.length,
      incidents: shown.map(({ urn }) => ({ __typename: 'Incident', urn, type: 'INCIDENT' })),
    };
  };
  const common = commonFields(loaders);
  const mapping: EntityMapping = { ...INCIDENT_MAPPING, resolvers: { tags: common.tags } };
  const typed = entityTypeResolvers(loaders, [mapping], { rules: { ...COMMON_RULES, ...INCIDENT_RULES }, ref: refWithKey }) as Record<
    string,
    Record<string, unknown>
  >;
  return { ...typed, ...Object.fromEntries(WITH_INCIDENTS.map((type) => [type, { incidents }])) };
}
