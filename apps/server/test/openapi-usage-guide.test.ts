import { readFileSync } from 'node:fs';
import { createOpenApiClient, type OpenApiClient } from '@mds/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverDatabases } from './support/databases';
import { startMds, type Mds } from './support/mds';

// DataHub's OpenAPI usage guide, replayed: every request it shows (fixtures/openapi-usage-guide/guide.json, with its
// source commit), in its order, against a running mds through the typed client; each answer checked on what the
// guide documents of it. An entry the guide shows but mds does not serve is marked `supported: false` and its refusal
// is checked, so that nothing is skipped silently.

interface GuideRequest {
  id: string;
  section: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  documented: { status?: number; contentType?: string; text?: string; body?: any; [more: string]: any };
  supported: boolean;
  setup?: boolean;
  note?: string;
}
const guide: { source: { repo: string; path: string; commit: string }; requests: GuideRequest[] } = JSON.parse(
  readFileSync(new URL('fixtures/openapi-usage-guide/guide.json', import.meta.url), 'utf8'),
);

interface Reply {
  status: number;
  contentType: string;
  body: any;
}

let mds: Mds;
let api: OpenApiClient;

/**
 * Sends a guide request as written. Its URL is literal (query string and all), not one of the document's path
 * templates, so it goes through the client's untyped door; the checks below use the typed calls.
 */
async function replay(request: GuideRequest): Promise<Reply> {
  const send = api.request as unknown as (
    method: string,
    url: string,
    init: { body?: unknown; parseAs: 'text' },
  ) => Promise<{ data?: string; error?: unknown; response: Response }>;
  const { data, error, response } = await send(request.method.toLowerCase(), request.url, { body: request.body, parseAs: 'text' });
  const contentType = response.headers.get('content-type') ?? '';
  const body = response.ok ? (contentType.startsWith('application/json') && data ? JSON.parse(data) : data) : error;
  return { status: response.status, contentType, body };
}

const URN = 'urn:li:dataset:(urn:li:dataPlatform:platform,testSchemaIngest,PROD)';
const CREATED = 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)';
const request = (id: string) => guide.requests.find((r) => r.id === id)!;
/** The aspect the guide's POST sends, as the v1 answer gives it back (DataHub adds nothing to it). */
const postedSchema = () => (request('v1-post-upsert').body as { aspect: unknown }[])[0]!.aspect;
const globalTags = async () =>
  (await api.GET('/openapi/v3/entity/dataset/{urn}/globalTags', { params: { path: { urn: CREATED } } })).data!.value.tags;

/** What each answer is checked on, by the guide request's id: the fields the guide documents. */
const checks: Record<string, (reply: Reply, documented: GuideRequest['documented']) => void | Promise<void>> = {
  'swagger-ui': (reply, { contentType }) => {
    expect(reply.contentType).toContain(contentType);
    expect(reply.body).toContain('swagger-ui');
  },
  'api-docs-json': (reply, { contentType }) => {
    expect(reply.contentType).toContain(contentType);
    expect(reply.body).toMatchObject({
      openapi: expect.stringMatching(/^3\./),
      paths: expect.objectContaining({ '/openapi/entities/v1/': expect.any(Object) }),
    });
  },
  'api-docs-yaml': (reply, { contentType }) => {
    expect(reply.contentType).toContain(contentType);
    expect(reply.body).toMatch(/^openapi: 3\./);
  },
  'v1-post-upsert': (reply) => expect(reply.body).toEqual([URN]),
  'v1-post-create': (reply) => expect(reply.body.error).toContain('since the entity key already exists'),
  'v1-get-latest': (reply, { body }) => checkLatest(reply, body),
  'v1-delete-soft': async (reply, { body }) => {
    expect(reply.body).toEqual(body);
    const status = await api.GET('/openapi/v3/entity/dataset/{urn}/status', { params: { path: { urn: URN } } });
    expect(status.data?.value).toEqual({ removed: true });
  },
  'postman-post': (reply) => expect(reply.body).toEqual([URN]),
  'postman-delete': (reply, { body }) => expect(reply.body).toEqual(body),
  'postman-get': (reply, { body }) => checkLatest(reply, body),
  relationships: async (reply, { body }) => {
    expect(Object.keys(reply.body).sort()).toEqual(Object.keys(body).sort());
    expect(reply.body).toEqual({ start: 0, count: 0, total: 0, entities: [] });
    // The same request where the graph has such edges: two datasets in a container.
    const container = 'urn:li:container:guide';
    const inside = ['a', 'b'].map((name) => `urn:li:dataset:(urn:li:dataPlatform:hive,guide.${name},PROD)`);
    const written = await api.POST('/openapi/v3/entity/dataset', {
      params: { query: { async: false } },
      body: inside.map((urn) => ({ urn, container: { value: { container } } })),
    });
    expect(written.response.status).toBe(200);
    const related = await api.GET('/openapi/relationships/v1/', {
      params: { query: { urn: container, relationshipTypes: ['IsPartOf'], direction: 'INCOMING', start: 0, count: 200 } },
    });
    expect(related.data).toEqual({ start: 0, count: 2, total: 2, entities: inside.map((urn) => ({ relationshipType: 'IsPartOf', urn })) });
  },
  'java-rest-emitter': async (reply) => {
    const items = request('java-rest-emitter').body as { entityUrn: string; aspect: { description: string } }[];
    expect(reply.body).toEqual(items.map((item) => item.entityUrn));
    for (const item of items) {
      const read = await api.GET('/openapi/v3/entity/dataset/{urn}/datasetProperties', { params: { path: { urn: item.entityUrn } } });
      expect(read.data?.value.description).toBe(item.aspect.description);
    }
  },
  'platform-entities': (reply) => expect(reply.body).toEqual({ message: 'No route for /openapi/platform/entities/v1/', status: 404 }),
  'seed-batch-get': () => undefined,
  'batch-get': (reply, { body }) => expect(reply.body).toMatchObject(body),
  'mutate-global-tags': () => undefined,
  'batch-get-after-mutation': (reply, { body }) => expect(reply.body).toMatchObject(body),
  'batch-get-previous-version': (reply, { body }) => expect(reply.body).toMatchObject(body),
  'generic-patch-add': async (_reply, { addsElement }) => expect(await globalTags()).toContainEqual(addsElement),
  'generic-patch-add-again': async () => expect((await globalTags()).filter((t) => t.tag === 'urn:li:tag:tag1')).toHaveLength(1),
  'generic-patch-remove': async (_reply, { removesElement, preserves }) =>
    expect((await globalTags()).map((t) => t.tag)).toEqual(preserves.filter((t: string) => t !== removesElement)),
};

/** A v1 `latest` answer: the documented structure, on the dataset the guide's POST wrote, with what it sent. */
function checkLatest(reply: Reply, documented: any) {
  const [example] = Object.values<any>(documented.responses);
  const entity = reply.body.responses[URN];
  expect(Object.keys(reply.body.responses)).toEqual([URN]);
  expect(Object.keys(entity).sort()).toEqual(Object.keys(example).sort());
  expect(entity).toMatchObject({ entityName: example.entityName, urn: URN });
  expect(Object.keys(entity.aspects).sort()).toEqual(Object.keys(example.aspects).sort());
  for (const [name, aspect] of Object.entries<any>(entity.aspects)) {
    const { value, ...envelope } = example.aspects[name];
    expect(Object.keys(aspect).sort(), name).toEqual(Object.keys(example.aspects[name]).sort());
    expect(aspect).toMatchObject({
      name,
      type: envelope.type,
      version: envelope.version,
      created: { time: expect.any(Number), actor: 'urn:li:corpuser:datahub' },
    });
    expect(aspect.value.__type).toBe(value.__type);
  }
  expect(entity.aspects.datasetKey.value).toEqual({
    __type: 'DatasetKey',
    platform: 'urn:li:dataPlatform:platform',
    name: 'testSchemaIngest',
    origin: 'PROD',
  });
  expect(entity.aspects.schemaMetadata.value).toEqual(postedSchema());
}

it('has a check for every request of the fixture, and the fixture every check', () => {
  expect(guide.requests.map((r) => r.id).sort()).toEqual(Object.keys(checks).sort());
});

describe.each(serverDatabases())(
  `DataHub's OpenAPI usage guide (${guide.source.repo} ${guide.source.path} @ ${guide.source.commit.slice(0, 10)}), replayed on %s`,
  (_, database) => {
    beforeAll(async () => {
      mds = await startMds(await database());
      api = createOpenApiClient({ baseUrl: mds.url, token: mds.rootToken });
    });
    afterAll(() => mds?.close());

    for (const entry of guide.requests) {
      const title = `${entry.supported ? '' : 'NOT SUPPORTED (answers 404, checked): '}${entry.setup ? 'setup, ' : ''}${entry.id}: ${entry.method} ${entry.url}`;
      it(title, async () => {
        const reply = await replay(entry);
        expect(reply.status, JSON.stringify(reply.body)).toBe(entry.supported ? entry.documented.status : 404);
        expect(reply.status < 400 || reply.contentType.startsWith('application/json')).toBe(true);
        await checks[entry.id]!(reply, entry.documented);
      });
    }
  },
);
