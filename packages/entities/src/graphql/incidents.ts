import { randomUUID } from 'node:crypto';
import { Privilege } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import { badRequest, notFound, type Actor, type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import type { EntityService } from '../service';
import { editPrivileges } from '../service/policy';
import { COMMON_RULES } from './common';
import { commonFields, list, pageOrRefuse, refWithKey, text, urnArgument, type Loaders } from './common-fields';
import { graphqlReader, writeAll } from './mutation-support';
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
export function incidentResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers {
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
  return {
    ...typed,
    ...Object.fromEntries(WITH_INCIDENTS.map((type) => [type, { incidents }])),
    Mutation: incidentMutations(service, now),
  };
}

/** DataHub's incident privileges: EDIT_ENTITY, or EDIT_ENTITY_INCIDENTS, on the asset. */
const EDIT_INCIDENTS = editPrivileges([Privilege.EDIT_ENTITY_INCIDENTS]);
const NOT_FOUND = 'Failed to update incident. Incident does not exist.';

interface StatusInput {
  state: string;
  stage?: string | null;
  message?: string | null;
}

/** An incidentStatus from the input (ACTIVE when none is given), stamped now (DataHub's IncidentUtils.mapIncidentStatus). */
const statusOf = (input: StatusInput | null | undefined, stamp: Json): Json =>
  input
    ? {
        state: input.state,
        ...(input.stage ? { stage: input.stage } : {}),
        ...(input.message != null ? { message: input.message } : {}),
        lastUpdated: stamp,
      }
    : { state: 'ACTIVE', lastUpdated: stamp };
const priorityValue = (priority: string | null | undefined) =>
  priority ? PRIORITIES.indexOf(priority as (typeof PRIORITIES)[number]) : undefined;
const assigneesOf = (urns: readonly string[] | null | undefined, stamp: Json) =>
  urns?.map((actor) => (urnArgument(actor), { actor, assignedAt: stamp }));
/** Urns of the input, each well-formed (a 400 names one that is not), without repeats. */
const urnsOf = (urns: readonly string[]) => [...new Set(urns.map((urn) => (urnArgument(urn), urn)))];
/** A value without the keys whose value is undefined (what PDL's SetMode.IGNORE_NULL / REMOVE_IF_NULL leave out). */
const defined = (value: Json): Json => Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));

/**
 * `raiseIncident`, `updateIncidentStatus`, `updateIncident`: the incidentInfo DataHub's RaiseIncidentResolver,
 * UpdateIncidentStatusResolver and UpdateIncidentResolver write, each decided by EDIT_ENTITY_INCIDENTS on the assets.
 */
function incidentMutations(service: EntityService, now: () => number) {
  const stampOf = (actor: Actor) => ({ time: now(), actor: actor.urn });
  const stored = async (actor: Actor, urn: string) => {
    if (urnArgument(urn).entityType !== 'incident') throw notFound(NOT_FOUND);
    const info = (await graphqlReader(service, actor).latest([urn], ['incidentInfo'])).get(urn)?.get('incidentInfo')?.value;
    if (!info) throw notFound(NOT_FOUND);
    return info;
  };
  const assetsOf = (info: Json) => (Array.isArray(info.entities) ? info.entities.filter((e): e is string => typeof e === 'string') : []);

  return {
    raiseIncident: async (
      _parent: unknown,
      {
        input,
      }: {
        input: { resourceUrn?: string | null; resourceUrns?: readonly string[] | null; type: string; customType?: string | null } & Json;
      },
      { actor }: ApiContext,
    ) => {
      const resources = urnsOf([...(input.resourceUrns ?? []), ...(input.resourceUrn ? [input.resourceUrn] : [])]);
      if (resources.length === 0) throw badRequest('At least 1 resource urn must be defined to raise an incident.');
      if (input.type === 'CUSTOM' && input.customType == null) throw badRequest('customType is required: Failed to create incident.');
      const urn = `urn:li:incident:${randomUUID()}`;
      const grant = await service.authorizeFor(actor, EDIT_INCIDENTS, resources, [urn]);
      const stamp = stampOf(actor);
      const info = defined({
        type: input.type,
        customType: input.customType ?? undefined,
        title: text(input.title) ?? undefined,
        description: text(input.description) ?? undefined,
        entities: resources,
        created: stamp,
        startedAt: typeof input.startedAt === 'number' ? input.startedAt : undefined,
        // Raised by hand, whatever the input's source says (DataHub's resolver).
        source: { type: 'MANUAL' },
        priority: priorityValue(text(input.priority)),
        assignees: assigneesOf(input.assigneeUrns as string[] | null | undefined, stamp),
        status: statusOf(input.status as StatusInput | null | undefined, stamp),
      });
      await writeAll(service, grant, [{ urn, aspect: 'incidentInfo', changeType: 'CREATE_ENTITY', value: info }], stamp);
      return urn;
    },

    updateIncidentStatus: async (_parent: unknown, { urn, input }: { urn: string; input: StatusInput }, { actor }: ApiContext) => {
      const info = await stored(actor, urn);
      // DataHub decides by the first asset the incident is raised on.
      const grant = await service.authorizeFor(actor, EDIT_INCIDENTS, assetsOf(info).slice(0, 1), [urn]);
      const stamp = stampOf(actor);
      return writeAll(
        service,
        grant,
        [{ urn, aspect: 'incidentInfo', changeType: 'UPSERT', value: { ...info, status: statusOf(input, stamp) } }],
        stamp,
      );
    },

    updateIncident: async (
      _parent: unknown,
      { urn, input }: { urn: string; input: { resourceUrns?: readonly string[] | null; status?: StatusInput | null } & Json },
      { actor }: ApiContext,
    ) => {
      const info = await stored(actor, urn);
      if (input.resourceUrns && input.resourceUrns.length === 0) throw badRequest('resourceUrns cannot be empty if provided');
      const moved = input.resourceUrns ? urnsOf(input.resourceUrns) : undefined;
      const grant = await service.authorizeFor(actor, EDIT_INCIDENTS, [...new Set([...assetsOf(info), ...(moved ?? [])])], [urn]);
      const stamp = stampOf(actor);
      const updated = defined({
        ...info,
        ...(input.title != null ? { title: input.title } : {}),
        ...(input.description != null ? { description: input.description } : {}),
        ...(input.status ? { status: statusOf(input.status, stamp) } : {}),
        ...(moved ? { entities: moved } : {}),
        // Priority and assignees are replaced, and removed when not given (DataHub's REMOVE_IF_NULL).
        priority: priorityValue(text(input.priority)),
        assignees: assigneesOf(input.assigneeUrns as string[] | null | undefined, stamp),
      });
      return writeAll(service, grant, [{ urn, aspect: 'incidentInfo', changeType: 'UPSERT', value: updated }], stamp);
    },
  };
}
