import { isJsonObject, parseUrn, UrnError } from '@mds/core';
import { randomUUID } from 'node:crypto';
import { Privilege } from '@mds/auth';
import {
  badRequest,
  unprocessable,
  type Actor,
  type ApiContext,
  type EntityParent,
  type FacetFilterInput,
  type Resolvers,
} from '@mds/schema';
import type { GraphQLObjectType, GraphQLResolveInfo, GraphQLSchema } from 'graphql';
import { SYSTEM_ACTOR, type EntityService } from '../service';
import { editPrivileges } from '../service/policy';
import { COMMON_RULES } from './common';
import { commonFields, list, pageOrRefuse, refWithKey, text, urnArgument, type Loaders } from './common-fields';
import { DATASET_RULES } from './dataset';
import { toGraphQL, type Json, type TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { graphqlReader, writeAll } from './mutation-support';
import { criteria } from './profiles';
import { rootQuery } from './root-queries';

/** The platform DataHub's AssertionMapper gives an assertion whose dataPlatformInstance is not stored. */
export const UNKNOWN_PLATFORM = 'urn:li:dataPlatform:unknown';
/** The time-series read's default `limit`, as for the other time-series fields. */
const DEFAULT_LIMIT = 10_000;
/** DataHub's EntityAssertionsResolver pages 0, 200 by default. */
const DEFAULT_ASSERTIONS = 200;

/** `urn:li:schemaField:(<asset>,<path>)` as DataHub's SchemaFieldRef: the field's own urn and its path. */
export function schemaFieldRef(urn: unknown): Json | undefined {
  if (typeof urn !== 'string') return undefined;
  try {
    const { entityType, parts } = parseUrn(urn);
    return entityType === 'schemaField' && parts.length === 2 ? { urn, path: parts[1] } : undefined;
  } catch (error) {
    if (error instanceof UrnError) return undefined;
    throw error;
  }
}

const fieldTypeOf = DATASET_RULES.SchemaField!.type as (field: Json) => unknown;
const entityUrn = { entityUrn: 'entity' } as const;

/**
 * How assertionInfo's and assertionRunEvent's records differ from their GraphQL types (DataHub's AssertionMapper,
 * FreshnessAssertionMapper, VolumeAssertionMapper, SqlAssertionMapper, FieldAssertionMapper, AssertionRunEventMapper).
 */
export const ASSERTION_RULES: TypeRules = {
  DatasetAssertionInfo: {
    datasetUrn: 'dataset',
    // Both lists are answered empty when not stored.
    fields: (v) => (Array.isArray(v.fields) ? v.fields.map(schemaFieldRef).filter(Boolean) : []),
    nativeParameters: (v) => v.nativeParameters ?? {},
  },
  FreshnessAssertionInfo: entityUrn,
  VolumeAssertionInfo: entityUrn,
  SqlAssertionInfo: entityUrn,
  FieldAssertionInfo: entityUrn,
  SchemaAssertionInfo: {
    ...entityUrn,
    // The fields of the expected schema, each with its path, type and native type.
    fields: (v) =>
      list(isJsonObject(v.schema) ? v.schema.fields : undefined).map((f) => ({
        path: f.fieldPath,
        type: fieldTypeOf(f),
        nativeType: f.nativeDataType,
      })),
  },
  CustomAssertionInfo: { ...entityUrn, field: (v) => schemaFieldRef(v.field) },
  // The run event's systemMetadata is not kept with the point.
  AssertionRunEvent: { lastObservedMillis: () => undefined },
  // DataHub's AssertionRunEventMapper copies no error into the GraphQL result.
  AssertionResult: { error: () => undefined },
};

const RULES: TypeRules = { ...COMMON_RULES, ...DATASET_RULES, ...ASSERTION_RULES };

/** `Assertion` from its assertionInfo, assertionActions, dataPlatformInstance, status and globalTags aspects. */
export const ASSERTION_MAPPING: EntityMapping = {
  entity: 'assertion',
  fields: {
    info: 'assertionInfo',
    actions: 'assertionActions',
    platform: (e) => text(e.value('dataPlatformInstance')?.platform) ?? UNKNOWN_PLATFORM,
    dataPlatformInstance: (e) => e.value('dataPlatformInstance')?.instance,
    status: 'status',
  },
};

interface RunEventArgs {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  status?: string | null;
  filter?: { and?: readonly FacetFilterInput[] | null } | null;
  limit?: number | null;
}

const resultOf = (event: Json) => (isJsonObject(event.result) ? event.result.type : undefined);
/** Completed runs whose result is of `type` (DataHub's AssertionRunEventResolver counts). */
const counted = (events: readonly Json[], type: string) => events.filter((e) => e.status === 'COMPLETE' && resultOf(e) === type).length;

/** The assertionRunEvent points of an assertion, newest first, as the caller may read them. */
export async function runEventsOf(service: EntityService, urn: string, args: RunEventArgs, context: ApiContext): Promise<Json[]> {
  const limit = args.limit ?? DEFAULT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1) throw badRequest("'limit' must be a positive integer");
  // `status` is one more criterion beside the filter's (DataHub's buildFilter).
  const and = [...(args.status ? [{ field: 'status', values: [args.status] }] : []), ...(args.filter?.and ?? [])];
  const points = await graphqlReader(service, context.actor).points({
    entityType: 'assertion',
    aspect: 'assertionRunEvent',
    urn,
    startTimeMillis: args.startTimeMillis ?? undefined,
    endTimeMillis: args.endTimeMillis ?? undefined,
    // The criteria apply before the limit, as in DataHub's query: with criteria, the window is read and then cut.
    limit: and.length ? DEFAULT_LIMIT : limit,
  });
  return and.length ? points.filter(criteria([{ and }])).slice(0, limit) : points;
}

/** The urns of the assertions that check `urn` (their Asserts edges), as DataHub's graph answers them. */
export async function assertionsOf(loaders: Loaders, urn: string, context: ApiContext, start = 0, count = DEFAULT_ASSERTIONS) {
  return loaders(context).reader.relationships(urn, { direction: 'INCOMING', types: ['Asserts'], start, count });
}

/** `Assertion`, `assertion(urn:)`, its run events, and `Dataset.assertions`. */
export function assertionResolvers(service: EntityService, loaders: Loaders, now: () => number): Resolvers {
  const common = commonFields(loaders);
  const runEvents = async (parent: EntityParent, args: RunEventArgs, context: ApiContext, info: GraphQLResolveInfo) => {
    const events = await runEventsOf(service, parent.urn, args, context);
    const scope = { urn: parent.urn, schema: info.schema, rules: RULES, ref: refWithKey };
    const converted = toGraphQL(events, runEventList(info.schema), scope) as Json[];
    return {
      total: events.length,
      failed: counted(events, 'FAILURE'),
      succeeded: counted(events, 'SUCCESS'),
      errored: counted(events, 'ERROR'),
      runEvents: converted,
    };
  };
  const mapping: EntityMapping = {
    ...ASSERTION_MAPPING,
    resolvers: { tags: common.tags, aspects: common.aspects, runEvents },
  };

  const assertions = async (
    parent: EntityParent,
    args: { start?: number | null; count?: number | null; includeSoftDeleted?: boolean | null },
    context: ApiContext,
  ) => {
    const page = pageOrRefuse(args.start ?? 0, args.count ?? DEFAULT_ASSERTIONS);
    const edges = await assertionsOf(loaders, parent.urn, context, page.start, page.count);
    const found = await Promise.all(
      edges.relationships.map(async ({ entity }) => {
        const aspects = await loaders(context).aspects(entity);
        // Stored (its key) and, unless asked, not soft-deleted (DataHub's exists check).
        const kept = !!aspects?.has('assertionKey') && (args.includeSoftDeleted || aspects.get('status')?.value.removed !== true);
        return kept ? [{ __typename: 'Assertion', urn: entity, type: 'ASSERTION' }] : [];
      }),
    );
    return { start: page.start, count: edges.relationships.length, total: edges.total, assertions: found.flat() };
  };

  return {
    ...entityTypeResolvers(loaders, [mapping], { rules: RULES, ref: refWithKey }),
    Query: { assertion: rootQuery(loaders, 'assertion') },
    Dataset: { assertions },
    Mutation: assertionMutations(service, now),
  };
}

/** The type of AssertionRunEventsResult.runEvents, which the stored points are converted to. */
const runEventList = (schema: GraphQLSchema) =>
  (schema.getType('AssertionRunEventsResult') as GraphQLObjectType).getFields().runEvents!.type;

/** The entity an assertion checks: the asset its assertionInfo names (DataHub's Asserts edge). */
export function asserteeOf(info: Json | undefined): string | undefined {
  if (!info) return undefined;
  for (const key of [
    'datasetAssertion',
    'freshnessAssertion',
    'volumeAssertion',
    'sqlAssertion',
    'fieldAssertion',
    'schemaAssertion',
    'customAssertion',
  ]) {
    const part = info[key];
    if (isJsonObject(part)) return text(part.dataset) ?? text(part.entity) ?? undefined;
  }
  return undefined;
}

/** DataHub's assertion edits: EDIT_ENTITY, or EDIT_ENTITY_ASSERTIONS, on the asset the assertion checks. */
const EDIT_ASSERTIONS = editPrivileges([Privilege.EDIT_ENTITY_ASSERTIONS]);

interface CustomAssertionInput {
  entityUrn: string;
  type: string;
  description: string;
  externalUrl?: string | null;
  platform: { urn?: string | null; name?: string | null };
  fieldPath?: string | null;
  logic?: string | null;
}

interface ResultInput {
  type: string;
  timestampMillis?: number | null;
  externalUrl?: string | null;
  properties?: readonly { key: string; value?: string | null }[] | null;
  error?: { type: string; message: string } | null;
}

/**
 * `deleteAssertion`, `upsertCustomAssertion`, `reportAssertionResult`: what DataHub's DeleteAssertionResolver,
 * UpsertCustomAssertionResolver and ReportAssertionResultResolver (through its AssertionService) write.
 */
function assertionMutations(service: EntityService, now: () => number) {
  const infoOf = async (actor: Actor, urn: string) =>
    (await graphqlReader(service, actor).latest([urn], ['assertionInfo'])).get(urn)?.get('assertionInfo')?.value;

  return {
    deleteAssertion: async (_parent: unknown, { urn }: { urn: string }, { actor }: ApiContext) => {
      if (urnArgument(urn).entityType !== 'assertion') throw badRequest(`Invalid assertion urn: ${urn}`);
      // An assertion that is not stored is gone already (DataHub answers true).
      if (!(await graphqlReader(service, actor).exists(urn))) return true;
      // Decided on the asset it checks; one without assertionInfo, on the assertion itself.
      const assertee = asserteeOf(await infoOf(actor, urn));
      const grant = await service.authorizeFor(actor, EDIT_ASSERTIONS, [assertee ?? urn], [urn]);
      await service.deleteEntity(grant, urn);
      return true;
    },

    upsertCustomAssertion: async (
      _parent: unknown,
      { urn, input }: { urn?: string | null; input: CustomAssertionInput },
      { actor }: ApiContext,
    ) => {
      const assertion = urn ?? `urn:li:assertion:${randomUUID()}`;
      if (urnArgument(assertion).entityType !== 'assertion') throw badRequest(`Invalid assertion urn: ${assertion}`);
      urnArgument(input.entityUrn);
      const platform = input.platform.urn ?? (input.platform.name ? `urn:li:dataPlatform:${input.platform.name}` : undefined);
      if (!platform) throw badRequest('Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified.');
      if (urnArgument(platform).entityType !== 'dataPlatform') throw badRequest(`Invalid platform urn: ${platform}`);
      const grant = await service.authorizeFor(actor, EDIT_ASSERTIONS, [input.entityUrn], [assertion]);
      const info = {
        type: 'CUSTOM',
        description: input.description,
        ...(input.externalUrl != null ? { externalUrl: input.externalUrl } : {}),
        source: { type: 'EXTERNAL' },
        customAssertion: {
          type: input.type,
          entity: input.entityUrn,
          ...(input.logic != null ? { logic: input.logic } : {}),
          ...(input.fieldPath != null ? { field: `urn:li:schemaField:(${input.entityUrn},${input.fieldPath})` } : {}),
        },
      };
      await writeAll(
        service,
        grant,
        [
          { urn: assertion, aspect: 'assertionInfo', changeType: 'UPSERT', value: info },
          { urn: assertion, aspect: 'dataPlatformInstance', changeType: 'UPSERT', value: { platform } },
        ],
        { time: now() },
      );
      return { __typename: 'Assertion', urn: assertion, type: 'ASSERTION' };
    },

    reportAssertionResult: async (_parent: unknown, { urn, result }: { urn: string; result: ResultInput }, { actor }: ApiContext) => {
      urnArgument(urn);
      const [edge] = (
        await graphqlReader(service, actor).relationships(urn, { direction: 'OUTGOING', types: ['Asserts'], start: 0, count: 1 })
      ).relationships;
      if (!edge)
        throw badRequest(
          `Failed to report Assertion Run Event. Assertion with urn ${urn} does not exist or is not associated with any entity.`,
        );
      await service.authorize(actor, EDIT_ASSERTIONS, [edge.entity]);
      if (!service.storesPoints('assertion', 'assertionRunEvent'))
        throw unprocessable('reportAssertionResult: this mds stores no time-series points (assertionRunEvent)');
      const timestampMillis = result.timestampMillis ?? now();
      const event = {
        timestampMillis,
        runId: String(timestampMillis),
        assertionUrn: urn,
        asserteeUrn: edge.entity,
        status: 'COMPLETE',
        result: {
          type: result.type,
          ...(result.externalUrl != null ? { externalUrl: result.externalUrl } : {}),
          // The error is kept only for an ERROR result, its message under `message` (DataHub's resolver).
          ...(result.type === 'ERROR' && result.error
            ? { error: { type: result.error.type, properties: { message: result.error.message } } }
            : {}),
          ...(result.properties ? { nativeResults: Object.fromEntries(result.properties.map((p) => [p.key, p.value ?? ''])) } : {}),
        },
      };
      const proposal = {
        entityType: 'assertion',
        entityUrn: urn,
        aspectName: 'assertionRunEvent',
        changeType: 'UPSERT',
        aspect: { contentType: 'application/json', value: JSON.stringify(event) },
      };
      // Decided above by the GraphQL policy (EDIT_ENTITY_ASSERTIONS on the asset), so written as the system, not
      // asked again by the REST APIs' rule (which knows only EDIT_ENTITY).
      await service.ingest(SYSTEM_ACTOR, [{ proposal, place: { action: 'reportAssertionResult', path: 'result' } }], { batch: false });
      return true;
    },
  };
}
