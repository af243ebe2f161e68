import { aspectSpec, decodeUrnPathSegment, findEntity, keyAspectValue, restliArrayParameter, type EntitySpec } from '@mds/core';
import { badRequest, defineAction, notFound, preconditionFailed, type Actor, type RestliAction, type RestliRead } from '@mds/schema';
import { z } from 'zod';
import { RELATIONSHIP_TYPES } from '../model/relationships';
import { readUrnParameter, type EntityService, type PlacedProposal, type StoredAspect } from '../service';
import { snapshotProposals, toSnapshot } from './snapshots';

export const MAX_PROPOSALS_PER_BATCH = 10_000;
/** DataHub 1.x answers its batch action with `success` (RESTLI_SUCCESS). */
export const BATCH_ANSWER = 'success';

/** The reads of a Rest.li caller, refused with `text(urn)`. */
const rest = (service: EntityService, actor: Actor, text: (urn: string) => string) => service.reader(actor, { api: 'rest', denied: text });

function entityOf(urn: string): EntitySpec {
  const parsed = readUrnParameter(urn);
  const entity = findEntity(parsed.entityType);
  if (!entity || entity.name !== parsed.entityType) throw badRequest(`Unknown entity: ${parsed.entityType}`);
  return entity;
}

/** An array parameter in any of Rest.li's spellings (`List(a,b)`, bare `a`, repeated `n=a&n=b`); undefined: absent. */
const listParameter = (query: string, name: string): string[] | undefined => {
  try {
    return restliArrayParameter(query, name);
  } catch (error) {
    throw badRequest(`Parameter '${name}': ${(error as Error).message}`);
  }
};

function integerParameter(params: URLSearchParams, name: string, fallback: number): number {
  const text = params.get(name);
  if (text === null) return fallback;
  if (!/^\d{1,9}$/.test(text)) throw badRequest(`Parameter '${name}' must be a non-negative integer, got: ${text}`);
  return Number(text);
}

const asyncFlag = z.union([z.string(), z.boolean()]).optional();
const getEntityDenied = (urn: string) => `User is unauthorized to get entity ${urn}`;

/** The Rest.li face of the entity service: ingestion actions and reads (entities-api §6-7). */
export function restliEndpoints(service: EntityService): { actions: RestliAction[]; reads: RestliRead[] } {
  const ingest = (actor: Actor, proposals: readonly PlacedProposal[], batch: boolean) => service.ingest(actor, proposals, { batch });
  const mayIngestInBulk = (actor: Actor) => service.mayIngestInBulk(actor);
  /** The EntityResponse of one URN (§7.2): the stored versioned aspects asked for, the key always. */
  const entityResponse = (urn: string, entity: EntitySpec, stored: Map<string, StoredAspect> | undefined) => {
    const aspects: Record<string, unknown> = {};
    if (!stored?.has(entity.keyAspect)) {
      aspects[entity.keyAspect] = {
        name: entity.keyAspect,
        type: 'VERSIONED',
        version: 0,
        value: keyAspectValue(entity, readUrnParameter(urn)),
      };
    }
    for (const a of stored?.values() ?? []) {
      aspects[a.aspect] = {
        name: a.aspect,
        type: 'VERSIONED',
        version: 0,
        value: a.value,
        created: { time: a.createdOn, actor: a.createdBy },
        ...(a.systemMetadata ? { systemMetadata: a.systemMetadata } : {}),
      };
    }
    return { entityName: entity.name, urn, aspects };
  };
  /** The EntityResponse with, for each time-series aspect named in `aspects=List(...)`, its newest point (§7.2). */
  const withTimeseries = async (
    reader: ReturnType<typeof rest>,
    response: ReturnType<typeof entityResponse>,
    entity: EntitySpec,
    named: readonly string[] | undefined,
  ) => {
    for (const aspectName of named ?? []) {
      if (aspectSpec(aspectName)?.kind !== 'timeseries' || !entity.aspects.includes(aspectName)) continue;
      const point = await reader.point(response.urn, entity.name, aspectName);
      if (!point) continue;
      response.aspects[aspectName] = {
        name: aspectName,
        type: 'TIMESERIES',
        value: point.value,
        timestamp: point.timestampMillis,
        ...(point.systemMetadata ? { systemMetadata: point.systemMetadata } : {}),
      };
    }
    return response;
  };
  /** The aspects a read asks for (`aspects=List(...)`), the key included; undefined: all. */
  const wantedAspects = (query: string, entity: EntitySpec) => {
    const named = listParameter(query, 'aspects');
    return named && [entity.keyAspect, ...named.filter((name) => entity.aspects.includes(name))];
  };

  const actions: RestliAction[] = [
    // DataHub's BatchIngestionRunResource `rollback` (the CLI's `datahub ingest rollback --run-id`): `safe` (default
    // true) keeps the key of an entity the run created and marks it removed; false (or the older hardDelete) removes it.
    defineAction({
      resource: 'runs',
      name: 'rollback',
      params: z
        .object({
          runId: z.string().min(1),
          dryRun: z.boolean().optional(),
          hardDelete: z.boolean().optional(),
          safe: z.boolean().optional(),
        })
        .strict(),
      handler: ({ runId, dryRun, hardDelete, safe }, { actor }) =>
        service.rollbackRun(
          actor,
          runId,
          { dryRun: dryRun ?? false, hardDelete: safe !== undefined ? !safe : (hardDelete ?? false) },
          () => 'User is NOT unauthorized to delete entities.',
        ),
    }),
    defineAction({
      resource: 'aspects',
      name: 'ingestProposal',
      // Bulk only when large: read one at a time (MAX_CONCURRENT_INGESTS), every single-aspect request committed (and
      // fsynced) alone: ~1,100 aspects/s from 32 clients, over 2,000 with their commits shared. A wide schemaMetadata
      // still gets the ingestion body limit, in a slot.
      bulk: 'when-large',
      admit: mayIngestInBulk,
      params: z.object({ proposal: z.unknown(), async: asyncFlag }).strict(),
      async handler({ proposal }, { actor }) {
        await ingest(actor, [{ proposal, place: { action: 'ingestProposal', path: 'proposal' } }], false);
        return typeof (proposal as { entityUrn?: unknown }).entityUrn === 'string'
          ? (proposal as { entityUrn: string }).entityUrn
          : BATCH_ANSWER;
      },
    }),
    defineAction({
      resource: 'aspects',
      name: 'ingestProposalBatch',
      bulk: true,
      admit: mayIngestInBulk,
      params: z
        .object({
          proposals: z
            .array(z.unknown())
            .max(MAX_PROPOSALS_PER_BATCH, `must hold at most ${MAX_PROPOSALS_PER_BATCH} proposals; split the batch`),
          async: asyncFlag,
        })
        .strict(),
      async handler({ proposals }, { actor }) {
        const placed = proposals.map((proposal, i) => ({ proposal, place: { action: 'ingestProposalBatch', path: `proposals.${i}` } }));
        await ingest(actor, placed, true);
        return BATCH_ANSWER;
      },
    }),
    defineAction({
      resource: 'entities',
      name: 'ingest',
      bulk: true,
      admit: mayIngestInBulk,
      params: z.object({ entity: z.object({ value: z.unknown() }), systemMetadata: z.unknown().optional() }).strict(),
      async handler({ entity, systemMetadata }, { actor }) {
        const proposals = snapshotProposals(entity.value, systemMetadata, { action: 'ingest', path: 'entity.value' });
        await ingest(actor, proposals, false);
        return undefined;
      },
    }),
    defineAction({
      resource: 'entities',
      name: 'batchIngest',
      bulk: true,
      admit: mayIngestInBulk,
      params: z.object({ entities: z.array(z.object({ value: z.unknown() })), systemMetadata: z.array(z.unknown()).optional() }).strict(),
      async handler({ entities, systemMetadata }, { actor }) {
        if (systemMetadata && systemMetadata.length !== entities.length)
          throw preconditionFailed('entities and systemMetadata length must match');
        const proposals = entities.flatMap((entity, i) =>
          snapshotProposals(entity.value, systemMetadata?.[i], { action: 'batchIngest', path: `entities.${i}.value` }),
        );
        await ingest(actor, proposals, true);
        return undefined;
      },
    }),
    defineAction({
      resource: 'entities',
      name: 'exists',
      params: z.object({ urn: z.string(), includeSoftDelete: z.boolean().optional() }).strict(),
      async handler({ urn, includeSoftDelete }, { actor }) {
        entityOf(urn);
        const reader = rest(service, actor, () => `User is unauthorized check entity existence: ${urn}`);
        return reader.exists(urn, { includeSoftDeleted: includeSoftDelete ?? true });
      },
    }),
    defineAction({
      resource: 'entities',
      name: 'delete',
      params: z
        .object({
          urn: z.string(),
          aspectName: z.string().optional(),
          startTimeMillis: z.number().int().optional(),
          endTimeMillis: z.number().int().optional(),
        })
        .strict(),
      async handler({ urn, aspectName, startTimeMillis, endTimeMillis }, { actor }) {
        const entity = entityOf(urn);
        const grant = await service.authorizeRest(actor, 'DELETE', [urn], `User is unauthorized to delete entity: ${urn}`);
        const window = { startTimeMillis, endTimeMillis };
        if (aspectName !== undefined) {
          // Only a time-series aspect's points can be deleted alone (entities-api §7.4; DataHub answers 500, mds 400).
          if (aspectSpec(aspectName)?.kind !== 'timeseries' || !service.storesPoints(entity.name, aspectName)) {
            throw badRequest(`Not supported for non-timeseries aspect ${aspectName}.`);
          }
          return { urn, timeseriesRows: await service.deletePoints(grant, { urn, entityType: entity.name, aspectName, ...window }) };
        }
        return { urn, ...(await service.deleteEntity(grant, urn, window)) };
      },
    }),
  ];

  const reads: RestliRead[] = [
    {
      resource: 'aspects',
      forms: [{ key: 'urn', query: [{ name: 'aspect', required: true }, { name: 'version' }] }],
      async handler(key, query, { actor }) {
        if (key === undefined) throw badRequest('GET /aspects needs an URN: /aspects/{urn}?aspect=<name>&version=<n>');
        const urn = decodeUrnPathSegment(key);
        readUrnParameter(urn);
        const params = new URLSearchParams(query);
        const aspect = params.get('aspect');
        if (!aspect) throw badRequest("Parameter 'aspect' is required");
        const versionText = params.get('version') ?? '0';
        if (!/^-?\d+$/.test(versionText)) throw badRequest(`Parameter 'version' must be an integer, got: ${versionText}`);
        const spec = aspectSpec(aspect);
        const reader = rest(service, actor, () => `User is unauthorized to get aspect for ${urn}`);
        const found = spec && spec.kind !== 'timeseries' ? await reader.get(urn, aspect, Number(versionText)) : undefined;
        if (!found) throw notFound('');
        return { aspect: { [spec!.pdlClass]: found.value }, version: found.version };
      },
    },
    {
      resource: 'entitiesV2',
      forms: [
        { key: 'urn', query: [{ name: 'aspects', array: true }] },
        {
          query: [
            { name: 'ids', required: true, array: true },
            { name: 'aspects', array: true },
          ],
        },
      ],
      async handler(key, query, { actor }) {
        if (key !== undefined) {
          const urn = decodeUrnPathSegment(key);
          const entity = entityOf(urn);
          const reader = rest(service, actor, getEntityDenied);
          const stored = await reader.latest([urn], wantedAspects(query, entity));
          return withTimeseries(reader, entityResponse(urn, entity, stored.get(urn)), entity, listParameter(query, 'aspects'));
        }
        const urns = listParameter(query, 'ids');
        if (!urns) throw badRequest("Parameter 'ids' is required: /entitiesV2?ids=List(<urn>,...)");
        const entities = urns.map(entityOf);
        const aspectsAsked = listParameter(query, 'aspects');
        const wanted = aspectsAsked && [...new Set(entities.flatMap((entity) => wantedAspects(query, entity)!))];
        const reader = rest(service, actor, getEntityDenied);
        const stored = await reader.latest(urns, wanted);
        const responses = urns.map((urn, i) =>
          withTimeseries(reader, entityResponse(urn, entities[i]!, stored.get(urn)), entities[i]!, aspectsAsked),
        );
        const results = Object.fromEntries((await Promise.all(responses)).map((response) => [response.urn, response]));
        return { results, statuses: {}, errors: {} };
      },
    },
    {
      resource: 'entities',
      forms: [{ key: 'urn', query: [{ name: 'aspects', array: true }] }],
      async handler(key, query, { actor }) {
        if (key === undefined) throw badRequest('GET /entities needs an URN: /entities/{urn}');
        const urn = decodeUrnPathSegment(key);
        const entity = entityOf(urn);
        const stored = (await rest(service, actor, getEntityDenied).latest([urn], wantedAspects(query, entity))).get(urn);
        if (!stored?.has(entity.keyAspect) || !entity.snapshotClass) throw notFound(`Did not find ${urn}`);
        return { value: toSnapshot(entity.snapshotClass, urn, stored.values(), (aspect) => aspectSpec(aspect)!.pdlClass) };
      },
    },
    {
      resource: 'relationships',
      forms: [
        {
          query: [
            { name: 'urn', required: true },
            { name: 'direction' },
            { name: 'types', array: true },
            { name: 'start' },
            { name: 'count' },
          ],
        },
      ],
      async handler(key, query, { actor }) {
        if (key !== undefined)
          throw badRequest('GET /relationships takes its urn as a parameter: /relationships?urn=<urn>&direction=INCOMING');
        const params = new URLSearchParams(query);
        const urn = params.get('urn');
        if (!urn) throw badRequest("Parameter 'urn' is required");
        readUrnParameter(urn);
        const direction = params.get('direction') ?? 'OUTGOING';
        if (direction !== 'INCOMING' && direction !== 'OUTGOING')
          throw badRequest(`Parameter 'direction' must be INCOMING or OUTGOING, got: ${direction}`);
        const types = listParameter(query, 'types') ?? [];
        const unknown = types.filter((type) => !RELATIONSHIP_TYPES.includes(type));
        if (unknown.length) throw badRequest(`Unknown relationship type(s) ${unknown.join(', ')}; known: ${RELATIONSHIP_TYPES.join(', ')}`);
        const start = integerParameter(params, 'start', 0);
        const count = integerParameter(params, 'count', 100);
        const reader = rest(service, actor, () => `User is unauthorized to get entity lineage: ${urn}`);
        const { total, relationships } = await reader.relationships(urn, { direction, types, start, count });
        return { start, count: relationships.length, total, relationships };
      },
    },
  ];
  return { actions, reads };
}
