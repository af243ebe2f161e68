import type { estypes } from '@elastic/elasticsearch';

/**
 * Answers shaped exactly like real clusters' (Elasticsearch 8.15 and 9.1, OpenSearch 2.17), typed with the client's
 * estypes so a field the client does not know fails to compile. OpenSearch fields estypes lacks are added explicitly.
 */
export type Flavour = 'elasticsearch9' | 'elasticsearch8' | 'opensearch';

type OpenSearchInfo = Omit<estypes.InfoResponse, 'version'> & {
  version: Omit<estypes.ElasticsearchVersionInfo, 'build_flavor'> & { distribution: 'opensearch' };
};

export const INFO: Record<Flavour, estypes.InfoResponse | OpenSearchInfo> = {
  elasticsearch9: {
    name: 'es01',
    cluster_name: 'docker-cluster',
    cluster_uuid: 'hY3mFq2gT7CqkYH1t2cZ9A',
    version: {
      number: '9.1.0',
      build_flavor: 'default',
      build_type: 'docker',
      build_hash: '8d59e4b3ff1f9b8c3a3d1e2f4b5c6d7e8f9a0b1c',
      build_date: '2025-07-17T21:33:41.965232215Z',
      build_snapshot: false,
      lucene_version: '10.2.2',
      minimum_wire_compatibility_version: '8.19.0',
      minimum_index_compatibility_version: '8.0.0',
    },
    tagline: 'You Know, for Search',
  },
  elasticsearch8: {
    name: 'es01',
    cluster_name: 'docker-cluster',
    cluster_uuid: 'Kx2c7m1dR9yZ0uN4qP8wEg',
    version: {
      number: '8.15.3',
      build_flavor: 'default',
      build_type: 'docker',
      build_hash: 'f97532e680b555c3a05e73a74c28afb666923018',
      build_date: '2024-10-09T22:08:00.328917561Z',
      build_snapshot: false,
      lucene_version: '9.11.1',
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'You Know, for Search',
  },
  opensearch: {
    name: 'opensearch-node1',
    cluster_name: 'opensearch-cluster',
    cluster_uuid: 'Zq1d0aYwQ7uF2n9pL3xVbA',
    version: {
      distribution: 'opensearch',
      number: '2.17.1',
      build_type: 'tar',
      build_hash: '1893d20797e30110e5877170e44d42275ce5951e',
      build_date: '2024-09-26T21:59:52.691008096Z',
      build_snapshot: false,
      lucene_version: '9.11.1',
      minimum_wire_compatibility_version: '7.10.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'The OpenSearch Project: https://opensearch.org/',
  },
};

const store = (bytes: number): estypes.IndicesStatsIndexStats => ({
  store: { size_in_bytes: bytes, total_data_set_size_in_bytes: bytes, reserved_in_bytes: 0 },
});

/** `GET /*aspect_v1/_stats/store`: primaries and total (with one replica) per index. */
export function statsResponse(flavour: Flavour, sizes: Record<string, number>): estypes.IndicesStatsResponse {
  const sum = Object.values(sizes).reduce((a, b) => a + b, 0);
  const indices: Record<string, estypes.IndicesStatsIndicesStats> = {};
  for (const [name, bytes] of Object.entries(sizes)) {
    indices[name] = {
      uuid: `uuid-${name.length}`,
      // Elasticsearch 8.1+ reports health and status per index; OpenSearch does not.
      ...(flavour === 'opensearch' ? {} : { health: 'green' as const, status: 'open' as const }),
      primaries: store(bytes),
      total: store(bytes * 2),
    };
  }
  return {
    _shards: { total: 2 * Object.keys(sizes).length, successful: 2 * Object.keys(sizes).length, failed: 0 },
    _all: { primaries: store(sum), total: store(sum * 2) },
    indices,
  };
}

export const countResponse = (count: number): estypes.CountResponse => ({
  count,
  _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
});

export const NODE = 'oTUltX4IQMOUUVeiohTt8A';

/** `POST /<index>/_delete_by_query?wait_for_completion=false` */
export const deleteByQueryStarted = (id: number) => ({ task: `${NODE}:${id}` });

const bulkByScrollStatus = (total: number, deleted: number, batches: number) => ({
  total,
  updated: 0,
  created: 0,
  deleted,
  batches,
  version_conflicts: 0,
  noops: 0,
  retries: { bulk: 0, search: 0 },
  throttled_millis: 0,
  requests_per_second: -1.0,
  throttled_until_millis: 0,
});

function taskInfo(id: number, index: string, status: ReturnType<typeof bulkByScrollStatus>): estypes.TasksTaskInfo {
  return {
    node: NODE,
    id,
    type: 'transport',
    action: 'indices:data/write/delete/byquery',
    status,
    description: `delete-by-query [${index}]`,
    start_time_in_millis: 1_700_000_000_000,
    running_time_in_nanos: 1_234_567_890,
    cancellable: true,
    cancelled: false,
    headers: {},
  };
}

/** `GET /_tasks/<node>:<id>` while the task runs, once it completed, and once it failed. */
export const taskRunning = (id: number, index: string): estypes.TasksGetResponse => ({
  completed: false,
  task: taskInfo(id, index, bulkByScrollStatus(1000, 600, 6)),
});

export const taskCompleted = (id: number, index: string): estypes.TasksGetResponse => ({
  completed: true,
  task: taskInfo(id, index, bulkByScrollStatus(1000, 1000, 10)),
  response: {
    took: 1234,
    timed_out: false,
    ...bulkByScrollStatus(1000, 1000, 10),
    throttled: '0s',
    throttled_until: '0s',
    failures: [],
  },
});

export const taskFailed = (id: number, index: string): estypes.TasksGetResponse => ({
  completed: true,
  task: taskInfo(id, index, bulkByScrollStatus(1000, 200, 2)),
  response: {
    took: 99,
    timed_out: false,
    ...bulkByScrollStatus(1000, 200, 2),
    failures: [
      {
        index,
        id: 'abc',
        cause: { type: 'es_rejected_execution_exception', reason: 'rejected execution of coordinating operation' },
        status: 429,
      },
    ],
  },
});

/** `GET /_tasks?actions=...&detailed=true&group_by=none` */
export const tasksList = (running: { id: number; index: string }[]): estypes.TasksListResponse => ({
  tasks: running.map(({ id, index }) => taskInfo(id, index, bulkByScrollStatus(1000, 10, 1))),
});

export function bulkResponse(items: { index: string; id: string; error?: estypes.ErrorCause; status?: number }[]): estypes.BulkResponse {
  return {
    errors: items.some((i) => i.error),
    took: 30,
    items: items.map(({ index, id, error, status }) => ({
      index: error
        ? { _index: index, _id: id, status: status ?? 400, error }
        : {
            _index: index,
            _id: id,
            _version: 1,
            result: 'created',
            _shards: { total: 2, successful: 1, failed: 0 },
            _seq_no: 0,
            _primary_term: 1,
            status: 201,
          },
    })),
  };
}

export const indexCreated = (index: string): estypes.IndicesCreateResponse => ({
  acknowledged: true,
  shards_acknowledged: true,
  index,
});

/** Error answers, as the cluster sends them. */
export const errorBody = (type: string, reason: string, status: number, extra: Record<string, unknown> = {}) => ({
  error: { root_cause: [{ type, reason, ...extra }], type, reason, ...extra },
  status,
});

export const indexNotFound = (index: string) =>
  errorBody('index_not_found_exception', `no such index [${index}]`, 404, {
    'resource.type': 'index_or_alias',
    'resource.id': index,
    index_uuid: '_na_',
    index,
  });

export const indexExists = (index: string) =>
  errorBody('resource_already_exists_exception', `index [${index}/Fz3Xu1d7R9mR3g] already exists`, 400, {
    index_uuid: 'Fz3Xu1d7R9mR3g',
    index,
  });

export const taskNotFound = (task: string) =>
  errorBody('resource_not_found_exception', `task [${task}] isn't running and hasn't stored its results`, 404);

/** `POST /<index>/_search` sorted on timestampMillis: one hit per document, `sort` holding its timestamp. */
export function searchResponse(
  index: string,
  documents: { id: string; source: Record<string, unknown> & { timestampMillis: number } }[],
): estypes.SearchResponse<Record<string, unknown>> {
  return {
    took: 3,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: { value: documents.length, relation: 'eq' },
      max_score: null,
      hits: documents.map(({ id, source }) => ({ _index: index, _id: id, _score: null, _source: source, sort: [source.timestampMillis] })),
    },
  };
}

/** `POST /<indices>/_delete_by_query?refresh=true` run to completion (wait_for_completion defaults to true). */
export const deleteByQueryDone = (deleted: number): estypes.DeleteByQueryResponse => ({
  took: 147,
  timed_out: false,
  ...bulkByScrollStatus(deleted, deleted, deleted === 0 ? 0 : 1),
  throttled: '0s',
  throttled_until: '0s',
  failures: [],
});
