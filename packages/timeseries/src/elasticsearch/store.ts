import {
  Cluster,
  isErrorType,
  type Client,
  type ClusterOptions,
  type TransportRequestOptions as Options,
  type estypes,
} from '@mds/elasticsearch';
import { conflict, unavailable } from '@mds/schema';
import type { ElasticsearchConfig } from '../config.ts';
import type {
  DeleteByUrnRequest,
  IndexSize,
  TaskCounts,
  TaskRef,
  TaskStatus,
  TimeseriesDocument,
  TimeseriesStore,
  TruncationCount,
  TruncationRequest,
  TimeseriesValue,
  ValuesRequest,
} from '../port.ts';
import { prefixOf } from '../registry.ts';
import { TIMESERIES_MAPPINGS } from './mappings.ts';

/** The action name Elasticsearch and OpenSearch give delete-by-query tasks. */
const DELETE_BY_QUERY_ACTION = 'indices:data/write/delete/byquery';

/**
 * The Elasticsearch/OpenSearch adapter. Documents are DataHub's time-series documents, so an existing DataHub
 * cluster can be pointed at as is.
 *
 * Both truncation modes run as an asynchronous `_delete_by_query` task. DataHub's reindex mode copies the
 * survivors into a new index and swaps an alias once the task ends: that last step would have to be driven by
 * mds after the task (and survive mds restarting in between), and a crash between the two would leave two
 * indices and an alias to repair by hand. A delete-by-query task lives in the cluster, is reported by `_tasks`
 * even after mds restarts, and the space it frees is reclaimed by Lucene merges. The answer text still says which
 * mode DataHub would have chosen, since clients parse it.
 */
export class ElasticsearchStore implements TimeseriesStore {
  readonly kind = 'elasticsearch';
  readonly indexPrefix: string;
  private readonly cluster: Cluster;
  /** Indices known to exist with our mappings (created on first use). */
  private readonly created = new Set<string>();
  /** Tasks this process saw finish, for taskCounts (the cluster keeps no tally). */
  private readonly finished = new Map<string, 'completed' | 'failed'>();

  constructor(options: ClusterOptions & { config: ElasticsearchConfig }) {
    this.indexPrefix = options.config.indexPrefix;
    this.cluster = new Cluster(options);
  }

  async write(documents: readonly TimeseriesDocument[]): Promise<void> {
    if (documents.length === 0) return;
    const indices = [...new Set(documents.map((d) => d.index))];
    await this.cluster.run('a bulk write', async (client, options) => {
      for (const index of indices) await this.ensureIndex(client, options, index);
      const operations: string[] = [];
      for (const doc of documents) {
        operations.push(JSON.stringify({ index: { _index: doc.index, _id: doc.id } }), documentSource(doc));
      }
      const result = await client.bulk({ operations }, options);
      if (result.errors) throw bulkFailure(result);
    });
  }

  async indexSizes(): Promise<IndexSize[]> {
    const pattern = `${prefixOf(this.indexPrefix)}*aspect_v1`;
    const stats = await this.cluster.run('the index statistics request', (client, options) =>
      client.indices.stats({ index: pattern, metric: 'store' }, options),
    );
    return Object.entries(stats.indices ?? {}).map(([indexName, index]) => ({
      indexName,
      sizeBytes: index.primaries?.store?.size_in_bytes ?? 0,
    }));
  }

  async values(request: ValuesRequest): Promise<TimeseriesValue[]> {
    if (request.limit <= 0) return [];
    return this.cluster.run('a search', async (client, options) => {
      let answer: estypes.SearchResponse<ValueSource>;
      try {
        answer = await client.search<ValueSource>(
          {
            index: request.index,
            query: ofUrn(request),
            sort: [{ timestampMillis: { order: request.order === 'ASCENDING' ? 'asc' : 'desc' } }],
            size: request.limit,
            _source: ['timestampMillis', 'event', 'systemMetadata'],
          },
          options,
        );
      } catch (error) {
        if (isErrorType(error, 'index_not_found_exception')) return [];
        throw error;
      }
      return answer.hits.hits.map(({ _source: source }) => ({
        eventJson: JSON.stringify(source?.event ?? {}),
        systemMetadataJson: source?.systemMetadata === undefined ? null : JSON.stringify(source.systemMetadata),
        timestampMillis: Number(source?.timestampMillis),
      }));
    });
  }

  async deleteByUrn(request: DeleteByUrnRequest): Promise<number> {
    if (request.indices?.length === 0) return 0;
    const index = request.indices ? [...request.indices] : `${prefixOf(this.indexPrefix)}*aspect_v1`;
    return this.cluster.run('the delete-by-query request', async (client, options) => {
      const answer = await client.deleteByQuery(
        { index, query: ofUrn(request), refresh: true, ignore_unavailable: true, conflicts: 'proceed' },
        options,
      );
      const failure = answer.failures?.[0]?.cause;
      if (failure) {
        throw unavailable(
          `Elasticsearch deleted ${answer.deleted ?? 0} points of ${request.urn}, then failed: ` +
            `${answer.failures!.length} failures, first: ${failure.type}: ${failure.reason ?? ''}`.trimEnd(),
        );
      }
      return answer.deleted ?? 0;
    });
  }

  async countForTruncation(index: string, endTimeMillis: number): Promise<TruncationCount> {
    return this.cluster.run('a count', async (client, options) => {
      const count = async (query: estypes.QueryDslQueryContainer) => {
        try {
          return (await client.count({ index, query }, options)).count;
        } catch (error) {
          if (isErrorType(error, 'index_not_found_exception')) return 0;
          throw error;
        }
      };
      const [matching, total] = await Promise.all([count(upTo(endTimeMillis)), count({ match_all: {} })]);
      return { matching, total };
    });
  }

  async startTruncation(request: TruncationRequest): Promise<string> {
    return this.cluster.run('the delete-by-query request', async (client, options) => {
      const running = await runningDeleteByQuery(client, options, request.index);
      if (running) {
        throw conflict(
          `A truncation of ${request.index} is already running as task ${running}; ` +
            'wait for it to complete (poll getEsTaskStatus) before starting another.',
        );
      }
      // An index never written is truncated like an empty one rather than failing with index_not_found.
      await this.ensureIndex(client, options, request.index);
      const started = await client.deleteByQuery(
        {
          index: request.index,
          query: upTo(request.endTimeMillis),
          wait_for_completion: false,
          conflicts: 'proceed',
          scroll_size: request.batchSize,
          timeout: `${request.timeoutSeconds}s`,
          ...(request.rowsPerSecond ? { requests_per_second: request.rowsPerSecond } : {}),
        },
        options,
      );
      if (!started.task) throw unavailable(`Elasticsearch started no task for the delete-by-query on ${request.index}.`);
      return String(started.task);
    });
  }

  async taskStatus(task: TaskRef): Promise<TaskStatus | null> {
    return this.cluster.run('the task status request', async (client, options) => {
      let answer: estypes.TasksGetResponse;
      try {
        answer = await client.tasks.get({ task_id: `${task.node}:${task.id}` }, options);
      } catch (error) {
        if (isErrorType(error, 'resource_not_found_exception')) return null;
        throw error;
      }
      const status: TaskStatus = {
        completed: answer.completed,
        taskId: `${answer.task.node}:${answer.task.id}`,
        status: (answer.task.status ?? {}) as Record<string, unknown>,
        runTimeNanos: Number(answer.task.running_time_in_nanos),
      };
      const error = taskError(answer);
      if (error) status.error = error;
      if (status.completed) this.finished.set(status.taskId, error ? 'failed' : 'completed');
      return status;
    });
  }

  async checkReady(): Promise<void> {
    await this.cluster.run('the readiness check', (client, options) => client.info({}, options));
  }

  async taskCounts(): Promise<TaskCounts> {
    const running = await this.cluster.run('the task list request', async (client, options) => {
      const list = await client.tasks.list({ actions: DELETE_BY_QUERY_ACTION, detailed: true, group_by: 'none' }, options);
      const tasks = Array.isArray(list.tasks) ? list.tasks : Object.values(list.tasks ?? {});
      return tasks.filter((t) => isOurIndex(t.description, this.indexPrefix)).length;
    });
    let completed = 0;
    for (const outcome of this.finished.values()) if (outcome === 'completed') completed++;
    return { running, completed, failed: this.finished.size - completed };
  }

  async close(): Promise<void> {
    await this.cluster.close();
  }

  private async ensureIndex(client: Client, options: Options, index: string): Promise<void> {
    if (this.created.has(index)) return;
    try {
      await client.indices.create({ index, mappings: TIMESERIES_MAPPINGS }, options);
    } catch (error) {
      if (!isErrorType(error, 'resource_already_exists_exception')) throw error;
    }
    this.created.add(index);
  }
}

/** What `values` reads of a document: DataHub's fields, the aspect value under `event`. */
interface ValueSource {
  timestampMillis?: number;
  event?: unknown;
  systemMetadata?: unknown;
}

/** One urn's documents, in an inclusive window on timestampMillis when bounds are given. */
function ofUrn(request: { urn: string; startTimeMillis?: number; endTimeMillis?: number }): estypes.QueryDslQueryContainer {
  const filter: estypes.QueryDslQueryContainer[] = [{ term: { urn: request.urn } }];
  const range: estypes.QueryDslNumberRangeQuery = {};
  if (request.startTimeMillis !== undefined) range.gte = request.startTimeMillis;
  if (request.endTimeMillis !== undefined) range.lte = request.endTimeMillis;
  if (Object.keys(range).length > 0) filter.push({ range: { timestampMillis: range } });
  return { bool: { filter } };
}

const upTo = (endTimeMillis: number): estypes.QueryDslQueryContainer => ({
  range: { timestampMillis: { lte: endTimeMillis } },
});

/**
 * DataHub's document (TimeseriesAspectTransformer): common fields plus the aspect value under `event`. The value's
 * JSON text is spliced in as received; only pretty-printed text (raw newlines) is re-serialised, as NDJSON needs.
 */
function documentSource(doc: TimeseriesDocument): string {
  const common: Record<string, unknown> = {
    urn: doc.urn,
    '@timestamp': doc.timestampMillis,
    timestampMillis: doc.timestampMillis,
    isExploded: false,
  };
  if (doc.eventGranularity !== null) common.eventGranularity = doc.eventGranularity;
  if (doc.partitionSpec !== null) common.partitionSpec = doc.partitionSpec;
  if (doc.messageId !== null) common.messageId = doc.messageId;
  if (doc.runId !== null) common.runId = doc.runId;
  const event = /[\r\n]/.test(doc.eventJson) ? JSON.stringify(JSON.parse(doc.eventJson)) : doc.eventJson;
  let source = `${JSON.stringify(common).slice(0, -1)},"event":${event}`;
  if (doc.systemMetadataJson !== null) source += `,"systemMetadata":${doc.systemMetadataJson}`;
  return `${source}}`;
}

function bulkFailure(result: estypes.BulkResponse) {
  const failed = result.items.map((item) => Object.values(item)[0]).filter((item) => item?.error);
  const first = failed[0]?.error;
  return unavailable(
    `Elasticsearch rejected ${failed.length} of ${result.items.length} documents` +
      (first ? `: ${first.type}: ${first.reason ?? ''}`.trimEnd() : '.'),
  );
}

/** Whether a `delete-by-query [<index>]` task description names a time-series index under this prefix. */
function isOurIndex(description: string | undefined, prefix: string): boolean {
  const index = /^delete-by-query \[(.*)\]$/.exec(description ?? '')?.[1];
  return index !== undefined && index.endsWith('aspect_v1') && (prefix === '' || index.startsWith(`${prefix}_`));
}

/** The id of a delete-by-query task running on this index, found through `_tasks` so it works across mds restarts. */
async function runningDeleteByQuery(client: Client, options: Options, index: string): Promise<string | undefined> {
  const list = await client.tasks.list({ actions: DELETE_BY_QUERY_ACTION, detailed: true, group_by: 'none' }, options);
  const tasks = Array.isArray(list.tasks) ? list.tasks : Object.values(list.tasks ?? {});
  // Elasticsearch and OpenSearch describe the task as `delete-by-query [<index>]`.
  const running = tasks.find((t) => t.description === `delete-by-query [${index}]`);
  return running ? `${running.node}:${running.id}` : undefined;
}

/** Why a finished task did not do all its work, if it did not. */
function taskError(answer: estypes.TasksGetResponse): string | undefined {
  if (answer.error) return `${answer.error.type}: ${answer.error.reason ?? ''}`.trimEnd();
  const response = answer.response as { failures?: { cause?: estypes.ErrorCause }[]; canceled?: string } | undefined;
  const failure = response?.failures?.[0]?.cause;
  if (failure) return `${response.failures!.length} failures, first: ${failure.type}: ${failure.reason ?? ''}`.trimEnd();
  if (response?.canceled) return `Cancelled: ${response.canceled}`;
  return undefined;
}
