import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './support/api-client';
import { startMds, type Mds } from './support/mds';
import { URN_TABLE, encodeUrn } from './support/urn-table';

// Issue 30 items 4-5: one URN rule on every face. Each URN of the table, sent to every face that takes a URN (Rest.li
// reads, actions and ingestion, OpenAPI reads and writes, GraphQL arguments): never a 5xx; a key with the wrong number
// of parts is a 400 naming the urn everywhere; and a URN ingestion accepts is one every read accepts (no read answers
// 400 for what was ingested), so nothing ingested can break a read for others.

let mds: Mds;
let admin: ApiClient;

beforeAll(async () => {
  mds = await startMds();
  admin = mds.clientFor(mds.rootToken);
});
afterAll(() => mds?.close());

const typeOf = (urn: string) => /^urn:li:([A-Za-z]+):/.exec(urn)?.[1] ?? 'dataset';
const statusProposal = (urn: string) => ({
  entityType: typeOf(urn),
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName: 'status',
  aspect: { contentType: 'application/json', value: '{"removed":false}' },
});

/** A GraphQL answer as a face's status: 200 when it has data and no error, else the error's code (4xx/5xx). */
async function graphqlStatus(api: ApiClient, query: string, urn: string): Promise<{ status: number; message?: string }> {
  const { status, body } = await api.graphql(query, { u: urn });
  if (status !== 200 || !body.errors?.length) return { status };
  const error = body.errors[0] as { message: string; extensions?: { code?: number } };
  return { status: Number(error.extensions?.code ?? 500), message: error.message };
}

/** Every face that takes a URN, as [face, what it answered]; `read` marks those that only read. */
function faces(urn: string) {
  const e = encodeUrn(urn);
  const type = typeOf(urn);
  const rest = async (answer: Promise<{ status: number; body: any }>) => {
    const { status, body } = await answer;
    return { status, message: (body?.message ?? body?.error) as string | undefined };
  };
  return [
    { face: 'GET /entitiesV2/{urn}', read: true, send: () => rest(admin.get(`/entitiesV2/${e}`)) },
    { face: 'GET /entitiesV2?ids=List(urn)', read: true, send: () => rest(admin.get(`/entitiesV2?ids=List(${e})`)) },
    { face: 'GET /aspects/{urn}', read: true, send: () => rest(admin.get(`/aspects/${e}?aspect=status&version=0`)) },
    { face: 'GET /entities/{urn}', read: true, send: () => rest(admin.get(`/entities/${e}`)) },
    { face: 'POST /entities?action=exists', read: true, send: () => rest(admin.post('/entities?action=exists', { urn })) },
    { face: 'GET /openapi/v3/entity/{type}/{urn}', read: true, send: () => rest(admin.get(`/openapi/v3/entity/${type}/${e}`)) },
    { face: 'GET /openapi/entities/v1/latest', read: true, send: () => rest(admin.get(`/openapi/entities/v1/latest?urns=${e}`)) },
    { face: 'GraphQL entity(urn:)', read: true, send: () => graphqlStatus(admin, 'query($u: String!) { entity(urn: $u) { urn } }', urn) },
    {
      face: 'GraphQL entities(urns:)',
      read: true,
      send: () => graphqlStatus(admin, 'query($u: String!) { entities(urns: [$u]) { urn } }', urn),
    },
    {
      face: 'POST /aspects?action=ingestProposal',
      read: false,
      send: () => rest(admin.post('/aspects?action=ingestProposal', { proposal: statusProposal(urn) })),
    },
    {
      face: 'POST /openapi/v3/entity/{type}',
      read: false,
      send: () => rest(admin.post(`/openapi/v3/entity/${type}?async=false`, [{ urn, status: { value: { removed: false } } }])),
    },
  ];
}

describe('one URN rule on Rest.li, OpenAPI and GraphQL', () => {
  it.each(URN_TABLE.map((c) => [c.name, c] as const))(
    '%s: no 5xx on any face, and reads accept what ingestion accepts',
    async (_, { urn, wrongParts }) => {
      const answers: Record<string, { status: number; message?: string }> = {};
      for (const { face, send } of faces(urn)) answers[face] = await send();
      for (const [face, { status, message }] of Object.entries(answers)) {
        expect(status, `${face}: ${message}`).toBeLessThan(500);
        if (wrongParts) {
          expect(status, face).toBe(400);
          expect(message ?? '', face).toMatch(
            /Invalid urn|Failed to convert urn to entity key: urns parts and key fields do not have same length/,
          );
        }
      }
      if (wrongParts) {
        expect(answers['GET /entitiesV2/{urn}']!.message).toBe(
          `Invalid urn: ${urn}\n Cause: Failed to convert urn to entity key: urns parts and key fields do not have same length`,
        );
        expect(answers['GraphQL entity(urn:)']!.message).toBe(`Invalid urn: ${urn}`);
      }
      // Ingestion accepted it: then no read refuses it.
      if (answers['POST /aspects?action=ingestProposal']!.status === 200) {
        for (const { face, read } of faces(urn)) if (read) expect(answers[face]!.status, face).not.toBe(400);
      }
    },
  );
});

describe('nothing ingested breaks a read for others', () => {
  it('an Editor ingests status for urn:li:tag:a b: search over everything still answers, for everyone', async () => {
    const editor = mds.clientFor(await mds.tokenFor('urn:li:corpuser:urn-rule-editor', 'urn:li:dataHubRole:Editor'));
    const nobody = mds.clientFor(await mds.tokenFor('urn:li:corpuser:urn-rule-nobody', null));
    const poisoned = ['urn:li:tag:a b', 'urn:li:tag:../../etc/passwd', 'urn:li:tag:%ZZ', 'urn:li:tag:a?b#c'];
    for (const urn of poisoned) {
      const { status } = await editor.post('/aspects?action=ingestProposal', { proposal: statusProposal(urn) });
      expect(status, urn).toBe(200);
    }
    const search =
      '{ searchAcrossEntities(input: { query: "*", count: 100 }) { total searchResults { entity { urn ... on Tag { properties { name } } } } } }';
    for (const api of [admin, editor, nobody]) {
      const { status, body } = await api.graphql(search);
      expect(status).toBe(200);
      expect(body.errors).toBeUndefined();
      const found = (body.data.searchAcrossEntities.searchResults as { entity: { urn: string } }[]).map((r) => r.entity.urn);
      expect(found).toEqual(expect.arrayContaining(poisoned));
    }
    // Each is read like any tag, on every face.
    for (const urn of poisoned) {
      expect((await admin.graphql('query($u: String!) { tag(urn: $u) { urn } }', { u: urn })).body).toEqual({ data: { tag: { urn } } });
      expect((await admin.get(`/entitiesV2/${encodeURIComponent(urn)}`)).status).toBe(200);
    }
  });
});
