import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';

// The same callers on the same entities through every face (Rest.li, OpenAPI, GraphQL): every read, write and delete
// operation answers the same allow or deny, decided once by the entity service's policy. The roles grant as entities-api
// §11 says; an owner (no role) holds on what it owns what DataHub's default "Asset Owners - Metadata Policy" grants
// (read, and every edit, EDIT_ENTITY included, so Rest.li and OpenAPI ingestion too: AuthUtil asks EDIT_ENTITY on the
// resource), never a delete. DataHub's switches decide where faces differ: with its defaults GraphQL reads are open
// (VIEW_AUTHORIZATION_ENABLED=false); with it on, GraphQL reads of a dataset answer as Rest.li's and OpenAPI's do; with
// REST_API_AUTHORIZATION_ENABLED=false, Rest.li and OpenAPI check nothing while GraphQL edits still do.
type Caller = 'Admin' | 'Editor' | 'Reader' | 'no role' | 'owner';
const CALLERS: readonly Caller[] = ['Admin', 'Editor', 'Reader', 'no role', 'owner'];
const OWNER = 'urn:li:corpuser:olivia';
const TAG = 'urn:li:tag:Existing';
const NEW_TAG = 'urn:li:tag:Another';

type Kind = 'read' | 'edit' | 'delete';
type Face = 'Rest.li' | 'OpenAPI' | 'GraphQL';
/** A reply reduced to what decides the case: allowed, or refused (a 403, or a GraphQL 403 error). */
type Outcome = 'allowed' | 'refused';
interface Case {
  face: Face;
  kind: Kind;
  /** Runs the operation on `urn` as `mds` client `as`; answers what the caller got. */
  run: (as: Client, urn: string) => Promise<Outcome>;
}
type Client = ReturnType<Mds['clientFor']>;

const enc = encodeURIComponent;
const mcp = (urn: string, aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});
const rest = async (reply: Promise<{ status: number }>): Promise<Outcome> => {
  const { status } = await reply;
  if (status === 403) return 'refused';
  if (status >= 200 && status < 300) return 'allowed';
  throw new Error(`unexpected status ${status}`);
};
const gql = async (reply: Promise<{ status: number; body: any }>, read?: (data: any) => unknown): Promise<Outcome> => {
  const { body } = await reply;
  const [error] = body.errors ?? [];
  if (error?.extensions?.code === 403) return 'refused';
  if (error) throw new Error(`unexpected error ${JSON.stringify(error)}`);
  // A read the caller may not view answers no entity (VIEW_AUTHORIZATION_ENABLED).
  return read && read(body.data) == null ? 'refused' : 'allowed';
};
const tags = (...urns: string[]) => ({ tags: urns.map((tag) => ({ tag })) });

const CASES: Record<string, Case> = {
  // Rest.li
  restliGetAspect: { face: 'Rest.li', kind: 'read', run: (c, u) => rest(c.get(`/aspects/${enc(u)}?aspect=globalTags`)) },
  restliEntityV2: { face: 'Rest.li', kind: 'read', run: (c, u) => rest(c.get(`/entitiesV2/${enc(u)}?aspects=List(globalTags)`)) },
  restliEntitiesV2Batch: { face: 'Rest.li', kind: 'read', run: (c, u) => rest(c.get(`/entitiesV2?ids=List(${enc(u)})`)) },
  restliSnapshot: { face: 'Rest.li', kind: 'read', run: (c, u) => rest(c.get(`/entities/${enc(u)}`)) },
  restliRelationships: { face: 'Rest.li', kind: 'read', run: (c, u) => rest(c.get(`/relationships?urn=${enc(u)}&direction=OUTGOING`)) },
  restliExists: { face: 'Rest.li', kind: 'read', run: (c, u) => rest(c.post('/entities?action=exists', { urn: u })) },
  restliIngestProposal: {
    face: 'Rest.li',
    kind: 'edit',
    run: (c, u) => rest(c.post('/aspects?action=ingestProposal', { proposal: mcp(u, 'globalTags', tags(TAG, NEW_TAG)) })),
  },
  restliIngestProposalBatch: {
    face: 'Rest.li',
    kind: 'edit',
    run: (c, u) => rest(c.post('/aspects?action=ingestProposalBatch', { proposals: [mcp(u, 'status', { removed: false })] })),
  },
  restliIngestSnapshot: {
    face: 'Rest.li',
    kind: 'edit',
    run: (c, u) =>
      rest(
        c.post('/entities?action=ingest', {
          entity: {
            value: {
              'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: u, aspects: [{ 'com.linkedin.common.Status': { removed: false } }] },
            },
          },
        }),
      ),
  },
  restliDelete: { face: 'Rest.li', kind: 'delete', run: (c, u) => rest(c.post('/entities?action=delete', { urn: u })) },
  // OpenAPI
  openapiGetEntity: { face: 'OpenAPI', kind: 'read', run: (c, u) => rest(c.get(`/openapi/v3/entity/dataset/${enc(u)}`)) },
  openapiHeadEntity: { face: 'OpenAPI', kind: 'read', run: (c, u) => rest(c.request('HEAD', `/openapi/v3/entity/dataset/${enc(u)}`)) },
  openapiGetAspect: { face: 'OpenAPI', kind: 'read', run: (c, u) => rest(c.get(`/openapi/v3/entity/dataset/${enc(u)}/globalTags`)) },
  openapiBatchGet: { face: 'OpenAPI', kind: 'read', run: (c, u) => rest(c.post('/openapi/v3/entity/dataset/batchGet', [{ urn: u }])) },
  openapiV1Latest: { face: 'OpenAPI', kind: 'read', run: (c, u) => rest(c.get(`/openapi/entities/v1/latest?urns=${enc(u)}`)) },
  openapiV1Relationships: {
    face: 'OpenAPI',
    kind: 'read',
    run: (c, u) => rest(c.get(`/openapi/relationships/v1/?urn=${enc(u)}&relationshipTypes=TaggedWith&direction=OUTGOING`)),
  },
  openapiPostBatch: {
    face: 'OpenAPI',
    kind: 'edit',
    run: (c, u) => rest(c.post('/openapi/v3/entity/dataset', [{ urn: u, globalTags: { value: tags(TAG, NEW_TAG) } }])),
  },
  openapiPatchBatch: {
    face: 'OpenAPI',
    kind: 'edit',
    run: (c, u) =>
      rest(
        c.request('PATCH', '/openapi/v3/entity/dataset', [
          { urn: u, globalTags: { value: { patch: [{ op: 'add', path: `/tags/${NEW_TAG}`, value: { tag: NEW_TAG } }] } } },
        ]),
      ),
  },
  openapiPostAspect: {
    face: 'OpenAPI',
    kind: 'edit',
    run: (c, u) => rest(c.post(`/openapi/v3/entity/dataset/${enc(u)}/status?createIfNotExists=false`, { value: { removed: false } })),
  },
  openapiPatchAspect: {
    face: 'OpenAPI',
    kind: 'edit',
    run: (c, u) =>
      rest(c.request('PATCH', `/openapi/v3/entity/dataset/${enc(u)}/globalTags`, { patch: [{ op: 'remove', path: `/tags/${TAG}` }] })),
  },
  openapiV1Post: {
    face: 'OpenAPI',
    kind: 'edit',
    run: (c, u) =>
      rest(c.post('/openapi/entities/v1/', [{ entityType: 'dataset', entityUrn: u, aspect: { __type: 'Status', removed: false } }])),
  },
  openapiDeleteEntity: {
    face: 'OpenAPI',
    kind: 'delete',
    run: (c, u) => rest(c.request('DELETE', `/openapi/v3/entity/dataset/${enc(u)}`)),
  },
  openapiDeleteAspect: {
    face: 'OpenAPI',
    kind: 'delete',
    run: (c, u) => rest(c.request('DELETE', `/openapi/v3/entity/dataset/${enc(u)}/globalTags`)),
  },
  openapiV1HardDelete: {
    face: 'OpenAPI',
    kind: 'delete',
    run: (c, u) => rest(c.request('DELETE', `/openapi/entities/v1/?urns=${enc(u)}&soft=false`)),
  },
  // GraphQL
  graphqlDataset: {
    face: 'GraphQL',
    kind: 'read',
    run: (c, u) => gql(c.graphql(`{ dataset(urn: "${u}") { urn tags { tags { tag { urn } } } } }`), (d) => d.dataset),
  },
  graphqlEntity: { face: 'GraphQL', kind: 'read', run: (c, u) => gql(c.graphql(`{ entity(urn: "${u}") { urn } }`), (d) => d.entity) },
  graphqlEntities: {
    face: 'GraphQL',
    kind: 'read',
    run: (c, u) => gql(c.graphql(`{ entities(urns: ["${u}"]) { urn } }`), (d) => d.entities[0]),
  },
  graphqlAddTag: {
    face: 'GraphQL',
    kind: 'edit',
    run: (c, u) => gql(c.graphql(`mutation { addTag(input: { tagUrn: "${NEW_TAG}", resourceUrn: "${u}" }) }`)),
  },
  graphqlUpdateDescription: {
    face: 'GraphQL',
    kind: 'edit',
    run: (c, u) => gql(c.graphql(`mutation { updateDescription(input: { description: "new", resourceUrn: "${u}" }) }`)),
  },
  graphqlUpdateDataset: {
    face: 'GraphQL',
    kind: 'edit',
    run: (c, u) => gql(c.graphql(`mutation { updateDataset(urn: "${u}", input: { editableProperties: { description: "new" } }) { urn } }`)),
  },
  graphqlSoftDelete: {
    face: 'GraphQL',
    kind: 'edit',
    run: (c, u) => gql(c.graphql(`mutation { batchUpdateSoftDeleted(input: { urns: ["${u}"], deleted: true }) }`)),
  },
};

/** entities-api §11 with DataHub's Asset Owners policy: who may do each kind of operation. */
const MAY: Record<Kind, readonly Caller[]> = {
  read: ['Admin', 'Editor', 'Reader', 'owner'],
  edit: ['Admin', 'Editor', 'owner'],
  delete: ['Admin'],
};

const slug = (name: string, caller: Caller) => `${name}_${caller.replace(' ', '_')}`.toLowerCase();
const urnOf = (name: string, caller: Caller) => `urn:li:dataset:(urn:li:dataPlatform:hive,${slug(name, caller)},PROD)`;

/** A server with every case's own dataset for every caller (owned by OWNER, tagged TAG), and a token per caller. */
async function serverWith(env: Record<string, string>, cases: readonly string[]) {
  const mds = await startMds(env);
  // The table is the role table's: without DataHub's default policies for all users, a user with no role holds nothing.
  await mds.withoutAllUsersPolicies();
  const tokens = {} as Record<Caller, string>;
  tokens.Admin = await mds.tokenFor('urn:li:corpuser:ada', 'urn:li:dataHubRole:Admin');
  tokens.Editor = await mds.tokenFor('urn:li:corpuser:eddie', 'urn:li:dataHubRole:Editor');
  tokens.Reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
  tokens['no role'] = await mds.tokenFor('urn:li:corpuser:nora', null);
  tokens.owner = await mds.tokenFor(OWNER, null);
  const support = [TAG, NEW_TAG].map((tag) => ({ ...mcp(tag, 'tagProperties', { name: tag }), entityType: 'tag' }));
  const resources = cases.flatMap((name) =>
    CALLERS.flatMap((caller) => [
      mcp(urnOf(name, caller), 'ownership', { owners: [{ owner: OWNER, type: 'TECHNICAL_OWNER' }] }),
      mcp(urnOf(name, caller), 'globalTags', tags(TAG)),
    ]),
  );
  expect((await mds.post('/aspects?action=ingestProposalBatch', { proposals: [...support, ...resources] })).status).toBe(200);
  return { mds, client: (caller: Caller) => mds.clientFor(tokens[caller]) };
}

/** Everything stored of a resource, as the root user reads it over Rest.li. */
const storedOf = async (mds: Mds, urn: string) => (await mds.clientFor(mds.rootToken).get(`/entitiesV2/${enc(urn)}`)).body;

describe('with DataHub’s default switches: every face decides alike, GraphQL reads open', () => {
  let server: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    server = await serverWith({}, Object.keys(CASES));
  }, 120_000);
  afterAll(() => server?.mds.close());

  describe.each(Object.entries(CASES))('%s', (name, c) => {
    it.each(CALLERS)('by %s', async (caller) => {
      const urn = urnOf(name, caller);
      const before = await storedOf(server.mds, urn);
      const expected: Outcome = (c.face === 'GraphQL' && c.kind === 'read') || MAY[c.kind].includes(caller) ? 'allowed' : 'refused';
      expect(await c.run(server.client(caller), urn)).toBe(expected);
      const after = await storedOf(server.mds, urn);
      if (c.kind === 'read' || expected === 'refused') expect(after).toEqual(before);
      else expect(after).not.toEqual(before);
    });
  });
});

describe('with VIEW_AUTHORIZATION_ENABLED: GraphQL reads of a dataset answer as Rest.li’s and OpenAPI’s', () => {
  const reads = Object.keys(CASES).filter((name) => CASES[name]!.kind === 'read');
  let server: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    server = await serverWith({ VIEW_AUTHORIZATION_ENABLED: 'true' }, reads);
  }, 120_000);
  afterAll(() => server?.mds.close());

  it.each(CALLERS)('by %s: the same answer on every face', async (caller) => {
    const answers = await Promise.all(
      reads.map(async (name) => [name, await CASES[name]!.run(server.client(caller), urnOf(name, caller))]),
    );
    const expected = MAY.read.includes(caller) ? 'allowed' : 'refused';
    expect(Object.fromEntries(answers)).toEqual(Object.fromEntries(reads.map((name) => [name, expected])));
  });
});

describe('with REST_API_AUTHORIZATION_ENABLED=false: Rest.li and OpenAPI check nothing, GraphQL edits still do', () => {
  const chosen = [
    'restliGetAspect',
    'restliIngestProposal',
    'openapiGetEntity',
    'openapiPostBatch',
    'openapiDeleteEntity',
    'graphqlAddTag',
  ];
  let server: Awaited<ReturnType<typeof serverWith>>;
  beforeAll(async () => {
    server = await serverWith({ REST_API_AUTHORIZATION_ENABLED: 'false' }, chosen);
  }, 120_000);
  afterAll(() => server?.mds.close());

  it('lets a user without a role read, write and delete over REST, and refuses it a GraphQL edit', async () => {
    const answers = await Promise.all(
      chosen.map(async (name) => [name, await CASES[name]!.run(server.client('no role'), urnOf(name, 'no role'))]),
    );
    expect(Object.fromEntries(answers)).toEqual({
      restliGetAspect: 'allowed',
      restliIngestProposal: 'allowed',
      openapiGetEntity: 'allowed',
      openapiPostBatch: 'allowed',
      openapiDeleteEntity: 'allowed',
      graphqlAddTag: 'refused',
    });
  });
});
