import type { BaseConnection } from '@elastic/elasticsearch';
import Mock from '@elastic/elasticsearch-mock';
import type { ElasticsearchConfig } from '../src/config.ts';
import { ElasticsearchStore } from '../src/elasticsearch/store.ts';
import { INFO, errorBody, type Flavour } from './es-fixtures.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  querystring: Record<string, string>;
  body: unknown;
  /** Content-type and accept the client sent. */
  contentType: string | undefined;
  accept: string | undefined;
}

type Answer = { status?: number; body: unknown };

/**
 * A cluster of a given flavour behind @elastic/elasticsearch-mock: `answer` decides each response (GET / answers
 * the flavour's info by default). Around the mock's connection sits what the mock does not simulate but real
 * clusters do: Elasticsearch 8 refuses `compatible-with=9`, OpenSearch refuses vendored media types and sends no
 * `x-elastic-product` header. Every request is recorded with its headers.
 */
export function fakeCluster(flavour: Flavour, answer: (request: RecordedRequest) => Answer | undefined = () => undefined) {
  const mock = new Mock();
  const requests: RecordedRequest[] = [];
  const headersSeen: { contentType: string | undefined; accept: string | undefined }[] = [];

  mock.add({ method: ['GET', 'POST', 'PUT', 'DELETE', 'HEAD'], path: '*' }, (params) => {
    const headers = headersSeen.shift() ?? { contentType: undefined, accept: undefined };
    const request: RecordedRequest = {
      method: String(params.method),
      path: String(params.path),
      querystring: params.querystring ?? {},
      body: params.body ?? null,
      ...headers,
    };
    requests.push(request);
    const given = answer(request) ?? (request.method === 'GET' && request.path === '/' ? { body: INFO[flavour] } : undefined);
    if (!given) return { [STATUS]: 500, body: errorBody('unexpected_request', `${request.method} ${request.path}`, 500) };
    return given.status ? { [STATUS]: given.status, body: given.body } : (given.body as Record<string, unknown>);
  });

  const MockConnection = mock.getConnection() as unknown as new (...args: unknown[]) => BaseConnection;
  class ClusterConnection extends MockConnection {
    override async request(params: Parameters<BaseConnection['request']>[0], options: Parameters<BaseConnection['request']>[1]) {
      const header = (name: string) => {
        const value = (params.headers as Record<string, unknown> | undefined)?.[name];
        return value === undefined ? undefined : String(value);
      };
      const contentType = header('content-type');
      const accept = header('accept');
      const media = `${contentType ?? ''} ${accept ?? ''}`;
      if (flavour === 'elasticsearch8' && media.includes('compatible-with=9')) {
        return jsonResponse(
          400,
          errorBody('media_type_header_exception', 'Invalid media-type value on headers [Accept, Content-Type]', 400, {
            caused_by: {
              type: 'status_exception',
              reason: `A compatible version is required on both Content-Type and Accept headers if either one has requested a compatible version. Accept=${accept}, Content-Type=${contentType}`,
            },
          }),
        );
      }
      if (flavour === 'opensearch' && media.includes('vnd.elasticsearch')) {
        return jsonResponse(406, { error: `Content-Type header [${contentType ?? accept}] is not supported`, status: 406 }, false);
      }
      headersSeen.push({ contentType, accept });
      const response = (await super.request(params, options)) as {
        body: string;
        statusCode: number;
        headers: Record<string, unknown>;
      };
      // The mock only answers 200 (its own error class is not ours): statuses travel in the body and are applied here.
      const parsed = response.body.startsWith('{') ? (JSON.parse(response.body) as Record<string, unknown>) : {};
      if (STATUS in parsed) {
        response.statusCode = parsed[STATUS] as number;
        response.body = JSON.stringify(parsed.body);
        response.headers['content-length'] = String(Buffer.byteLength(response.body));
      }
      if (flavour === 'opensearch') delete response.headers['x-elastic-product'];
      return response as never;
    }

    override async close() {}
  }

  const config: ElasticsearchConfig = {
    backend: 'elasticsearch',
    indexPrefix: '',
    node: 'http://es.test:9200',
    requestTimeoutMs: 2000,
    implementation: 'auto',
  };
  const Connection = ClusterConnection as unknown as typeof BaseConnection;
  return {
    requests,
    Connection,
    store: (overrides: Partial<ElasticsearchConfig> = {}) => new ElasticsearchStore({ config: { ...config, ...overrides }, Connection }),
    /** Requests other than the version probe. */
    calls: () => requests.filter((r) => !(r.method === 'GET' && r.path === '/')),
  };
}

const STATUS = '__fakeClusterStatus';

function jsonResponse(statusCode: number, body: unknown, elasticProduct = true) {
  const text = JSON.stringify(body);
  return {
    body: text,
    statusCode,
    headers: {
      'content-type': 'application/json; charset=UTF-8',
      'content-length': String(Buffer.byteLength(text)),
      ...(elasticProduct ? { 'x-elastic-product': 'Elasticsearch' } : {}),
    },
  } as never;
}
