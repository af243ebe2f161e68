import { Privilege } from '@mds/auth';
import { isJsonObject } from '@mds/core';
import type { Criterion, SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type Resolvers } from '@mds/schema';
import type { GraphQLResolveInfo } from 'graphql';
import { randomUUID } from 'node:crypto';
import { anyOf, type EntityService, type StoredAspect } from '../service';
import { COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey, urnArgument, type Loaders } from './common-fields';
import { entityTypeResolvers, fieldResolvers, type EntityMapping, type EntityScope } from './mapping/declare';
import { writeAll, writeCreate } from './mutation-support';
import { creatorOwnership, idOf } from './ownership';
import { filterGroups } from './search';
import { validCron } from './cron';
import { sortedPage, SORTED_AT_MOST } from './sorted-page';

/** DataHub's IngestionAuthUtils.canManageIngestion: every ingestion read and write needs MANAGE_INGESTION. */
const MANAGE = anyOf(Privilege.MANAGE_INGESTION);
/** ListIngestionSourcesResolver's own refusal text (the others answer the common one). */
const LIST_DENIED = 'You are not authorized to list ingestion sources. Please contact your DataHub administrator.';
const SOURCE = 'dataHubIngestionSource';
const SOURCE_INFO = 'dataHubIngestionSourceInfo';
const EXECUTION = 'dataHubExecutionRequest';
const EXECUTION_INPUT = 'dataHubExecutionRequestInput';
const EXECUTION_RESULT = 'dataHubExecutionRequestResult';
/** The listing resolvers' default page size (ListIngestionSourcesResolver, ListExecutionRequestsResolver). */
const DEFAULT_COUNT = 20;
/** IngestionSourceExecutionRequestsResolver's default page size. */
const DEFAULT_RUNS = 10;
type Json = Record<string, unknown>;
type SortInput = { field: string; sortOrder: 'ASCENDING' | 'DESCENDING' } | null | undefined;
type SourceField = (parent: { urn?: string }, args: unknown, context: ApiContext, info: GraphQLResolveInfo) => Promise<never>;
type FacetFilters = Parameters<typeof filterGroups>[0]['filters'];

/** `IngestionSource` from its dataHubIngestionSourceInfo and ownership (DataHub's IngestionSourceMapper). */
const sourceInfo = (field: string) => (entity: EntityScope) => entity.value(SOURCE_INFO)?.[field];
const SOURCE_FIELDS = {
  name: sourceInfo('name'),
  type: sourceInfo('type'),
  config: sourceInfo('config'),
  schedule: sourceInfo('schedule'),
  ownership: 'ownership',
  // The mapper never sets it: DataHub answers null whatever the aspect holds.
  platform: () => null,
};

/** `ExecutionRequest` from its input and result aspects (DataHub's ExecutionRequestMapper). */
const EXECUTION_MAPPING: EntityMapping = {
  entity: EXECUTION,
  fields: {
    id: (entity) => idOf(entity.urn),
    input: (entity) => executionInput(entity.aspects.get(EXECUTION_INPUT)),
    result: EXECUTION_RESULT,
  },
};

/** The run's input as the mapper answers it: `args` as `arguments`; the actor, else the aspect's writer. */
function executionInput(stored: StoredAspect | undefined) {
  if (!stored) return null;
  const { value } = stored;
  const actorUrn = typeof value.actorUrn === 'string' ? value.actorUrn : stored.createdBy;
  return {
    task: value.task,
    source: value.source,
    arguments: value.args,
    requestedAt: value.requestedAt,
    actorUrn,
    actor: actorUrn.startsWith('urn:li:corpuser:') ? actorUrn : null,
    executorId: value.executorId,
  };
}

/** The ingestion source a run's input names, if any. */
const sourceOfRun = (input: Json | undefined) =>
  isJsonObject(input?.source) && typeof input.source.ingestionSource === 'string' ? input.source.ingestionSource : undefined;

/**
 * Ingestion sources and their recorded runs: `ingestionSource`, `listIngestionSources`, `executionRequest`,
 * `listExecutionRequests`, `IngestionSource.executions`, and the source mutations. Runs are only read: mds ships no
 * executor, so the mutations that would start, cancel or test one refuse with how to run the recipe instead.
 */
export function ingestionResolvers(service: EntityService, search: SearchIndex, loaders: Loaders, now: () => number): Resolvers {
  const reader = (context: ApiContext) => loaders(context).reader;
  /** The object of a stored source (null when its info is not stored: DataHub's mapper answers none). */
  const sourceOf = async (urn: string, context: ApiContext) => ((await loaders(context).aspects(urn))?.has(SOURCE_INFO) ? { urn } : null);
  const runOf = async (urn: string, context: ApiContext) =>
    (await loaders(context).aspects(urn))?.has(EXECUTION_INPUT) ? { __typename: 'ExecutionRequest', urn, type: 'EXECUTION_REQUEST' } : null;

  /** A page of runs, latest request first unless sorted otherwise (ListExecutionRequestsResolver's default). */
  const runsPage = async (
    context: ApiContext,
    query: { input: string; filters: Criterion[][]; sort?: SortInput },
    page: { start: number; count: number },
  ) => {
    const order = runOrder(query.sort);
    const { total, urns } = await sortedPage(search, loaders, context, { entityType: EXECUTION, ...query }, order, page);
    const executionRequests = urns.map((urn) => ({ __typename: 'ExecutionRequest', urn, type: 'EXECUTION_REQUEST' }));
    return { start: page.start, count: executionRequests.length, total, executionRequests };
  };

  const sourceUrn = (urn: string) => {
    if (urnArgument(urn).entityType !== SOURCE) throw badRequest(`Malformed urn ${urn} provided.`);
    return urn;
  };

  return {
    Query: {
      ingestionSource: (_parent: unknown, { urn }: { urn: string }, context: ApiContext) =>
        urnArgument(urn).entityType === SOURCE ? sourceOf(urn, context) : null,
      executionRequest: (_parent: unknown, { urn }: { urn: string }, context: ApiContext) =>
        urnArgument(urn).entityType === EXECUTION ? runOf(urn, context) : null,
      listIngestionSources: async (
        _parent: unknown,
        {
          input,
        }: { input: { start?: number | null; count?: number | null; query?: string | null; filters?: FacetFilters; sort?: SortInput } },
        context: ApiContext,
      ) => {
        await service.authorize(context.actor, MANAGE, undefined, LIST_DENIED);
        const page = pageOrRefuse(input.start, input.count ?? DEFAULT_COUNT);
        const { total, urns } = await sortedPage(
          search,
          loaders,
          context,
          { entityType: SOURCE, input: input.query ?? '', filters: filterGroups({ filters: input.filters }) },
          sourceOrder(input.sort),
          page,
        );
        return { start: page.start, count: urns.length, total, ingestionSources: urns.map((urn) => ({ urn })) };
      },
      listExecutionRequests: async (
        _parent: unknown,
        {
          input,
        }: {
          input: {
            start?: number | null;
            count?: number | null;
            query?: string | null;
            filters?: FacetFilters;
            sort?: SortInput;
            systemSources?: boolean | null;
          };
        },
        context: ApiContext,
      ) => {
        await service.authorize(context.actor, MANAGE);
        const page = pageOrRefuse(input.start, input.count ?? DEFAULT_COUNT);
        // As DataHub: only runs of stored sources, of the system ones or of the others when `systemSources` is given.
        const system: Criterion = { field: 'sourceType', values: ['SYSTEM'], negated: input.systemSources === false };
        const sources = await search.search({
          entityTypes: [SOURCE],
          input: '*',
          filters: input.systemSources == null ? [] : [[system]],
          start: 0,
          count: SORTED_AT_MOST,
          facets: [],
        });
        if (sources.hits.length === 0) return { start: page.start, count: 0, total: 0, executionRequests: [] };
        const ofSources: Criterion = { field: 'ingestionSource', values: sources.hits.map((hit) => hit.urn) };
        const asked = filterGroups({ filters: input.filters });
        const filters = asked.length ? asked.map((group) => [...group, ofSources]) : [[ofSources]];
        return runsPage(context, { input: input.query ?? '*', filters, sort: input.sort }, page);
      },
    },
    Mutation: {
      createIngestionSource: async (_parent: unknown, { input }: { input: SourceInput }, { actor }: ApiContext) => {
        const grant = await service.authorize(actor, MANAGE);
        const info = sourceInfoOf(input);
        const urn = `urn:li:${SOURCE}:${randomUUID()}`;
        const time = now();
        await writeCreate(
          service,
          grant,
          [
            { urn, aspect: SOURCE_INFO, changeType: 'CREATE_ENTITY', value: info },
            { urn, aspect: 'ownership', changeType: 'UPSERT', value: creatorOwnership({ time, actor: actor.urn }) },
          ],
          { time },
          'This Ingestion Source already exists!',
        );
        return urn;
      },
      updateIngestionSource: async (_parent: unknown, { urn, input }: { urn: string; input: SourceInput }, { actor }: ApiContext) => {
        const grant = await service.authorize(actor, MANAGE);
        const info = sourceInfoOf(input);
        await writeAll(service, grant, [{ urn: sourceUrn(urn), aspect: SOURCE_INFO, changeType: 'UPSERT', value: info }], { time: now() });
        return urn;
      },
      deleteIngestionSource: async (_parent: unknown, { urn }: { urn: string }, { actor }: ApiContext) => {
        const grant = await service.authorize(actor, MANAGE);
        await service.deleteEntity(grant, sourceUrn(urn));
        return urn;
      },
      createIngestionExecutionRequest: async (
        _parent: unknown,
        { input }: { input: { ingestionSourceUrn: string } },
        context: ApiContext,
      ) => {
        await service.authorize(context.actor, MANAGE);
        const urn = sourceUrn(input.ingestionSourceUrn);
        const info = (await reader(context).latest([urn], [SOURCE_INFO])).get(urn)?.get(SOURCE_INFO)?.value;
        if (!info) throw badRequest(`Failed to find ingestion source with urn ${urn}`);
        throw badRequest(
          `${NO_EXECUTOR} To run this source, save its recipe (config.recipe of ingestionSource(urn: "${urn}")) as recipe.yml, ` +
            `point its sink at this server (sink: {type: datahub-rest, config: {server: <this server's URL>, token: <an access token>}}) ` +
            `and run \`datahub ingest -c recipe.yml\`.`,
        );
      },
      cancelIngestionExecutionRequest: async (_parent: unknown, _args: unknown, { actor }: ApiContext) => {
        await service.authorize(actor, MANAGE);
        throw badRequest(`${NO_EXECUTOR} A run started with \`datahub ingest\` is cancelled where it runs.`);
      },
      createTestConnectionRequest: async (_parent: unknown, _args: unknown, { actor }: ApiContext) => {
        await service.authorize(actor, MANAGE);
        throw badRequest(
          `${NO_EXECUTOR} To test the connection, save the recipe as recipe.yml and run \`datahub ingest -c recipe.yml --dry-run\` ` +
            `(or \`datahub check source-connection\` on DataHub CLI versions that have it).`,
        );
      },
      rollbackIngestion: async (_parent: unknown, { input }: { input: { runId: string } }, { actor }: ApiContext) => {
        // RollbackIngestionResolver: MANAGE_INGESTION, then the entity client's rollback (a hard delete, no dry run).
        await service.authorize(actor, MANAGE);
        await service.rollbackRun(actor, input.runId, { dryRun: false, hardDelete: true }, () => 'Failed to rollback ingestion execution');
        // The field is a String; DataHub's resolver answers its boolean true, which GraphQL serializes as "true".
        return 'true';
      },
    },
    IngestionSource: {
      // An IngestionSource is no Entity, so its parent is typed loosely; it always carries the urn it was answered with.
      ...(fieldResolvers(loaders, SOURCE_FIELDS, { rules: COMMON_RULES, ref: refWithKey }) as Record<
        keyof typeof SOURCE_FIELDS,
        SourceField
      >),
      // IngestionSourceExecutionRequestsResolver: the source's runs, latest request first.
      executions: (parent: { urn?: string }, { start, count }: { start?: number | null; count?: number | null }, context: ApiContext) => {
        const page = pageOrRefuse(start, count ?? DEFAULT_RUNS);
        return runsPage(context, { input: '*', filters: [[{ field: 'ingestionSource', values: [parent.urn ?? ''] }]] }, page);
      },
      // GetLatestSuccessfulExecutionRequestResolver: the latest requested of the source's runs that succeeded.
      latestSuccessfulExecution: async (parent: { urn?: string }, _args: unknown, context: ApiContext) => {
        const filters = [
          [
            { field: 'ingestionSource', values: [parent.urn ?? ''] },
            { field: 'executionResultStatus', values: ['SUCCESS'] },
          ],
        ];
        const { urns } = await sortedPage(search, loaders, context, { entityType: EXECUTION, input: '*', filters }, runOrder(undefined), {
          start: 0,
          count: 1,
        });
        return urns[0] ? runOf(urns[0], context) : null;
      },
    },
    ExecutionRequest: {
      ...entityTypeResolvers(loaders, [EXECUTION_MAPPING], { rules: COMMON_RULES, ref: refWithKey }).ExecutionRequest,
      // ExecutionRequest.source: the ingestion source the run's input names, when it is stored.
      source: async (parent: { urn: string }, _args: unknown, context: ApiContext) => {
        const source = sourceOfRun((await loaders(context).aspects(parent.urn))?.get(EXECUTION_INPUT)?.value);
        return source && urnArgument(source).entityType === SOURCE ? sourceOf(source, context) : null;
      },
    },
  };
}

const NO_EXECUTOR = "mds runs no ingestion executor: DataHub's UI starts runs through DataHub's Python executor, which mds does not ship.";

const textOf = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : undefined);
const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** ListIngestionSourcesResolver's order: by type unless asked (by `type` or `name`, the fields mds can order by). */
function sourceOrder(sort: SortInput) {
  const field = sort?.field ?? 'type';
  if (field !== 'type' && field !== 'name') throw badRequest(`Cannot sort ingestion sources by ${field}: only by type or name`);
  return { aspect: SOURCE_INFO, key: (info: Json | undefined) => textOf(info?.[field]), descending: sort?.sortOrder === 'DESCENDING' };
}

/** ListExecutionRequestsResolver's order: latest request first unless asked (by `requestTimeMs` or `startTimeMs`). */
function runOrder(sort: SortInput) {
  const field = sort?.field ?? 'requestTimeMs';
  if (field === 'requestTimeMs')
    return {
      aspect: EXECUTION_INPUT,
      key: (input: Json | undefined) => numberOf(input?.requestedAt),
      descending: !sort || sort.sortOrder === 'DESCENDING',
    };
  if (field === 'startTimeMs')
    return {
      aspect: EXECUTION_RESULT,
      key: (result: Json | undefined) => numberOf(result?.startTimeMs),
      descending: sort?.sortOrder === 'DESCENDING',
    };
  throw badRequest(`Cannot sort execution requests by ${field}: only by requestTimeMs or startTimeMs`);
}

interface SourceInput {
  name: string;
  type: string;
  description?: string | null;
  schedule?: { interval: string; timezone: string } | null;
  config: {
    recipe: string;
    version?: string | null;
    executorId: string;
    debugMode?: boolean | null;
    extraArgs?: readonly { key: string; value?: string | null }[] | null;
  };
}

/** dataHubIngestionSourceInfo as UpsertIngestionSourceResolver maps its input (the description is not kept). */
function sourceInfoOf(input: SourceInput): Json {
  const { config, schedule } = input;
  if (schedule) {
    const problem = validCron(schedule.interval);
    if (problem) throw badRequest(`Invalid cron schedule \`${schedule.interval}\`: ${problem}`);
    if (!validTimezone(schedule.timezone))
      throw badRequest(`Invalid timezone \`${schedule.timezone}\`: Unknown time-zone ID: ${schedule.timezone}`);
  }
  return {
    type: input.type,
    name: input.name,
    config: {
      recipe: config.recipe,
      ...(config.version != null ? { version: config.version } : {}),
      executorId: config.executorId,
      ...(config.debugMode != null ? { debugMode: config.debugMode } : {}),
      ...(config.extraArgs != null ? { extraArgs: extraArgsOf(config.extraArgs) } : {}),
    },
    ...(schedule ? { schedule: { interval: schedule.interval, timezone: schedule.timezone } } : {}),
  };
}

/** extraArgs as the map the aspect holds: every entry needs a value (the model's map is of strings). */
function extraArgsOf(entries: readonly { key: string; value?: string | null }[]): Record<string, string> {
  return Object.fromEntries(
    entries.map(({ key, value }) => {
      if (value == null) throw badRequest(`extraArgs entry ${JSON.stringify(key)} has no value`);
      return [key, value];
    }),
  );
}

/** Whether a time zone is one the platform's time zone database (or a UTC offset) names. */
function validTimezone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.trim() !== '';
  } catch {
    return false;
  }
}
