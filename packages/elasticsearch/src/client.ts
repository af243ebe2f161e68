import { Client, Transport, errors, type BaseConnection, type TransportRequestOptions, type estypes } from '@elastic/elasticsearch';
import { isApiError, unavailable, type ApiError } from '@mds/schema';
import type { ElasticsearchConnection } from './connection.ts';

/**
 * How to talk to the cluster. The v9 client sends `compatible-with=9` media types and refuses answers without
 * `x-elastic-product: Elasticsearch`: right for Elasticsearch 9 only. Elasticsearch 8 needs `compatible-with=8`
 * (it rejects 9), and OpenSearch (which sends no product header, and knows no vendored media types) needs plain
 * JSON and no product check. The client hard-codes both in its constructor, so a Transport subclass swaps them.
 */
export type Dialect = 'elasticsearch9' | 'elasticsearch8' | 'opensearch';

const compatibleWith = (major: number) => ({
  jsonContentType: `application/vnd.elasticsearch+json; compatible-with=${major}`,
  ndjsonContentType: `application/vnd.elasticsearch+x-ndjson; compatible-with=${major}`,
  accept: `application/vnd.elasticsearch+json; compatible-with=${major},text/plain`,
});
const PLAIN_JSON = {
  jsonContentType: 'application/json',
  ndjsonContentType: 'application/x-ndjson',
  accept: 'application/json, text/plain',
};

/** `probe`: plain JSON and no product check, which every supported cluster answers, to ask it what it is. */
function transportFor(dialect: Dialect | 'probe'): typeof Transport {
  const vendoredHeaders = dialect === 'elasticsearch9' ? compatibleWith(9) : dialect === 'elasticsearch8' ? compatibleWith(8) : PLAIN_JSON;
  const productCheck = dialect === 'elasticsearch9' || dialect === 'elasticsearch8' ? 'Elasticsearch' : undefined;
  return class DialectTransport extends Transport {
    constructor(options: ConstructorParameters<typeof Transport>[0]) {
      super({ ...options, productCheck, vendoredHeaders });
    }
  };
}

/** The dialect of a cluster, from its `GET /` answer. */
export function dialectOf(info: estypes.InfoResponse): Dialect {
  const version = info.version as estypes.ElasticsearchVersionInfo & { distribution?: string };
  if (version.distribution === 'opensearch') return 'opensearch';
  const major = Number.parseInt(version.number, 10);
  if (major >= 9) return 'elasticsearch9';
  if (major === 8) return 'elasticsearch8';
  throw unavailable(`Elasticsearch ${version.number} is not supported: mds needs Elasticsearch 8 or 9, or OpenSearch.`);
}

export interface ClusterOptions {
  config: ElasticsearchConnection;
  /** Tests: the connection class of @elastic/elasticsearch-mock. */
  Connection?: typeof BaseConnection;
}

/**
 * A client per dialect, detected lazily (so the server starts while the cluster is down), and every operation
 * bounded by the configured timeout: an unreachable, slow or foreign cluster becomes a 503, never a hang or a 500.
 */
export class Cluster {
  private client: Promise<Client> | undefined;
  private readonly clients: Client[] = [];

  constructor(private readonly options: ClusterOptions) {}

  /** Runs `fn` against the cluster within one deadline; `what` names the operation in error messages. */
  async run<T>(what: string, fn: (client: Client, options: TransportRequestOptions) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.options.config.requestTimeoutMs);
    const requestOptions: TransportRequestOptions = { signal, maxRetries: 0 };
    try {
      return await fn(await this.ready(requestOptions), requestOptions);
    } catch (error) {
      throw this.explain(error, what, signal.aborted);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.close()));
  }

  private ready(requestOptions: TransportRequestOptions): Promise<Client> {
    if (!this.client) {
      this.client = this.connect(requestOptions);
      // A failed detection is retried by the next operation (the cluster may come up later).
      this.client.catch(() => (this.client = undefined));
    }
    return this.client;
  }

  private async connect(requestOptions: TransportRequestOptions): Promise<Client> {
    const pinned = this.options.config.implementation;
    if (pinned === 'elasticsearch8' || pinned === 'elasticsearch9' || pinned === 'opensearch') {
      return this.track(this.newClient(pinned));
    }
    const probe = this.newClient('probe');
    try {
      return this.track(this.newClient(dialectOf(await probe.info({}, requestOptions))));
    } catch (error) {
      if (error instanceof errors.ResponseError && (error.statusCode === 401 || error.statusCode === 403)) {
        throw unavailable(
          `Elasticsearch at ${this.options.config.node} refused GET / (${error.statusCode}), which mds uses to detect ` +
            'the cluster version: check the credentials, or set ELASTICSEARCH_IMPLEMENTATION to elasticsearch8, ' +
            'elasticsearch9 or opensearch.',
        );
      }
      throw error;
    } finally {
      void probe.close();
    }
  }

  private track(client: Client): Client {
    this.clients.push(client);
    return client;
  }

  private newClient(dialect: Dialect | 'probe'): Client {
    const { config, Connection } = this.options;
    return new Client({
      node: config.node,
      ...(config.username !== undefined && config.password !== undefined
        ? { auth: { username: config.username, password: config.password } }
        : {}),
      requestTimeout: config.requestTimeoutMs,
      maxRetries: 0,
      Transport: transportFor(dialect),
      ...(Connection ? { Connection } : {}),
    });
  }

  /** The 503 an operation answers when the cluster failed it; other errors (ours) pass through. */
  private explain(error: unknown, what: string, deadlinePassed: boolean): ApiError | unknown {
    if (isApiError(error)) return error;
    const node = this.options.config.node;
    if (error instanceof errors.ResponseError) {
      return unavailable(`Elasticsearch answered ${error.statusCode ?? 'an error'} to ${what}: ${reasonOf(error)}`);
    }
    // Aborting on the deadline surfaces as a ConnectionError or RequestAbortedError depending on the stage.
    if (deadlinePassed || error instanceof errors.RequestAbortedError || error instanceof errors.TimeoutError) {
      return unavailable(`Elasticsearch at ${node} did not answer ${what} within ${this.options.config.requestTimeoutMs} ms.`);
    }
    if (error instanceof errors.ConnectionError || error instanceof errors.NoLivingConnectionsError) {
      return unavailable(`Elasticsearch at ${node} is unreachable (${what}): ${error.message}`);
    }
    if (error instanceof errors.ProductNotSupportedError) {
      return unavailable(
        `The cluster at ${node} did not identify itself as Elasticsearch; for OpenSearch set ELASTICSEARCH_IMPLEMENTATION=opensearch.`,
      );
    }
    return error;
  }
}

/** `type: reason` of an Elasticsearch error answer. */
export function reasonOf(error: errors.ResponseError): string {
  const cause = (error.body as { error?: estypes.ErrorCause | string } | undefined)?.error;
  if (typeof cause === 'string') return cause;
  if (cause) return cause.reason ? `${cause.type}: ${cause.reason}` : cause.type;
  return error.message;
}

/** Whether the cluster answered with this error type (e.g. `index_not_found_exception`). */
export function isErrorType(error: unknown, type: string): boolean {
  if (!(error instanceof errors.ResponseError)) return false;
  const cause = (error.body as { error?: estypes.ErrorCause } | undefined)?.error;
  return typeof cause === 'object' && cause?.type === type;
}
