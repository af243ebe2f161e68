export { Cluster, dialectOf, isErrorType, reasonOf, type ClusterOptions, type Dialect } from './client.ts';
export {
  DEFAULT_ELASTICSEARCH_TIMEOUT_MS,
  ElasticsearchConfigError,
  parseElasticsearchConnection,
  type ElasticsearchConnection,
  type ElasticsearchImplementation,
} from './connection.ts';
// The client's own types, so that users of the cluster need no second dependency on it.
export type { Client, TransportRequestOptions, estypes } from '@elastic/elasticsearch';
