import { Privilege, requirePrivilege } from '@mds/auth';
import { badRequest, defineAction, type Actor, type RestliAction } from '@mds/schema';
import { z } from 'zod';
import type { IndexSize, TimeseriesStore } from './port.ts';
import { indexName, parseIndexName, resolveAspect } from './registry.ts';
import { formatTaskId, taskFromParams } from './task-id.ts';
import { chooseMode, truncationSummary } from './truncation.ts';

/** DataHub's 403 texts (OperationsResource), byte for byte. */
export const FORBIDDEN = {
  indexSizes: 'User is unauthorized to get index sizes.',
  truncate: 'User is unauthorized to truncate timeseries index',
  taskStatus: 'User is unauthorized to get ES task status',
} as const;

const INDEX_SIZES_PRIVILEGES = [Privilege.GET_TIMESERIES_INDEX_SIZES, Privilege.MANAGE_SYSTEM_OPERATIONS];

export const DEFAULT_BATCH_SIZE = 5000;
/** Elasticsearch's default `timeout` of a delete-by-query; the embedded store's wait for the write lock. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

export interface IndexSizeEntry {
  aspectName: string;
  sizeMb: number;
  indexName: string;
  entityName: string;
  sizeInMb: number;
}

/**
 * Sizes in decimal MB (bytes / 1,000,000), entity and aspect read back from the index name, largest first.
 * Both `sizeMb` (older DataHub) and `sizeInMb` (newer) are sent, with the same value.
 */
export function indexSizeEntries(indexPrefix: string, sizes: IndexSize[]): IndexSizeEntry[] {
  const entries: IndexSizeEntry[] = [];
  for (const { indexName, sizeBytes } of sizes) {
    const parsed = parseIndexName(indexPrefix, indexName);
    if (!parsed) continue;
    const mb = sizeBytes / 1_000_000;
    entries.push({ aspectName: parsed.aspectName, sizeMb: mb, indexName, entityName: parsed.entityName, sizeInMb: mb });
  }
  return entries.sort((a, b) => b.sizeInMb - a.sizeInMb || a.indexName.localeCompare(b.indexName));
}

/** The privilege check and listing behind both getIndexSizes (Rest.li) and the OpenAPI endpoint. */
export async function listIndexSizes(store: TimeseriesStore, actor: Actor): Promise<IndexSizeEntry[]> {
  requirePrivilege(actor, INDEX_SIZES_PRIVILEGES, FORBIDDEN.indexSizes);
  return indexSizeEntries(store.indexPrefix, await store.indexSizes());
}

/** What `openApiIndexSizes` answers. */
export interface OpenApiIndexSizes {
  sizes: { aspectName: string; entityName: string; indexName: string; sizeMb: number }[];
}

/** `GET /openapi/operations/elasticSearch/getIndexSizes`: DataHub's OpenAPI shape, not wrapped in `value`. */
export async function openApiIndexSizes(store: TimeseriesStore, actor: Actor): Promise<OpenApiIndexSizes> {
  const entries = await listIndexSizes(store, actor);
  return {
    sizes: entries.map(({ aspectName, entityName, indexName, sizeMb }) => ({ aspectName, entityName, indexName, sizeMb })),
  };
}

const positiveInt = (what: string) => z.int().positive(`must be greater than 0 (${what})`);

/** Rest.li actions on 'operations'. */
export function operationsActions(store: TimeseriesStore): RestliAction[] {
  return [
    defineAction({
      resource: 'operations',
      name: 'getIndexSizes',
      params: z.object({}).strict(),
      async handler(_params, { actor }) {
        return { indexSizes: await listIndexSizes(store, actor) };
      },
    }),

    defineAction({
      resource: 'operations',
      name: 'truncateTimeseriesAspect',
      params: z
        .object({
          entityType: z.string(),
          aspect: z.string(),
          endTimeMillis: z.int(),
          dryRun: z.boolean().default(true),
          batchSize: positiveInt('rows per batch').default(DEFAULT_BATCH_SIZE),
          timeoutSeconds: positiveInt('seconds').default(DEFAULT_TIMEOUT_SECONDS),
          forceDeleteByQuery: z.boolean().optional(),
          forceReindex: z.boolean().optional(),
        })
        .strict(),
      async handler(params, { actor }) {
        requirePrivilege(actor, [Privilege.TRUNCATE_TIMESERIES_INDEX], FORBIDDEN.truncate);
        const { forceDeleteByQuery, forceReindex } = params;
        // DataHub answers this case with HTTP 200 and an error text; a 400 is what it means.
        if (forceDeleteByQuery !== undefined && forceDeleteByQuery === forceReindex) {
          throw badRequest(
            `Please only set forceReindex OR forceDeleteByQuery flags (got forceDeleteByQuery=${forceDeleteByQuery}, ` +
              `forceReindex=${forceReindex}): set at most one of them, to true.`,
          );
        }
        const resolved = resolveAspect(params.entityType, params.aspect);
        if (!resolved.ok) {
          throw badRequest(`Parameter '${resolved.field}' of action 'truncateTimeseriesAspect': ${resolved.reason}`);
        }
        const index = indexName(store.indexPrefix, resolved.ref);
        const count = await store.countForTruncation(index, params.endTimeMillis);
        const mode = chooseMode(count, { forceDeleteByQuery, forceReindex });
        if (params.dryRun) return truncationSummary(count, mode, true);
        return store.startTruncation({
          index,
          endTimeMillis: params.endTimeMillis,
          mode,
          batchSize: params.batchSize,
          timeoutSeconds: params.timeoutSeconds,
        });
      },
    }),

    defineAction({
      resource: 'operations',
      name: 'getEsTaskStatus',
      params: z.object({ task: z.string().optional(), nodeId: z.string().optional(), taskId: z.int().optional() }).strict(),
      async handler(params, { actor }) {
        requirePrivilege(actor, [Privilege.GET_ES_TASK_STATUS], FORBIDDEN.taskStatus);
        const ref = taskFromParams(params);
        const status = await store.taskStatus(ref);
        // The value is JSON *text*, as DataHub sends it (clients json.loads it).
        if (!status) return JSON.stringify({ error: `Could not get task status for ${formatTaskId(ref)}` });
        return JSON.stringify(status);
      },
    }),
  ];
}
