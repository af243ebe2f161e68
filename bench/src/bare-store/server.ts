import { openSqliteDatabase } from '@mds/db';
import { openBareStore } from '@mds/entities/raw-store';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { listenAnnounced, onBodyText, sendJson } from '../json-http.ts';

type BareStore = Awaited<ReturnType<typeof openBareStore>>;
type Proposals = Parameters<BareStore['ingest']>[0];

const ACTOR = 'urn:li:corpuser:bench';

/**
 * A `createTag` request's tag as the store alone writes it: the aspects mds's tag service writes for it (`tagProperties`
 * created, the caller as its technical owner in `ownership`; the store adds `tagKey`), read from the GraphQL body's
 * variables without GraphQL — no parse, no validation of the document or the values, no authorization.
 */
function tagProposals(body: { variables?: { input?: { id?: string; name?: string; description?: string } } }) {
  const input = body.variables?.input ?? {};
  const urn = `urn:li:tag:${input.id}`;
  const properties = input.description === undefined ? { name: input.name } : { name: input.name, description: input.description };
  const ownership = { owners: [{ owner: ACTOR, type: 'TECHNICAL_OWNER' }], lastModified: { time: Date.now(), actor: ACTOR } };
  const proposal = (aspectName: string, changeType: string, value: unknown) => ({
    entityType: 'tag',
    entityUrn: urn,
    changeType,
    aspectName,
    aspect: { value: JSON.stringify(value) },
  });
  return { urn, proposals: [proposal('tagProperties', 'CREATE_ENTITY', properties), proposal('ownership', 'UPSERT', ownership)] };
}

/**
 * The **bare store**: mds's aspect store and search index on a SQLite file of their own, behind an HTTP server that
 * writes with no check at all (`@mds/entities/raw-store`: no body limits or depth scan, no validation, no
 * authorization, no service, no GraphQL). What a write would cost if it checked nothing: the batched-ingest scenario
 * sends it the same `ingestProposalBatch` bodies as mds, batch for batch; `createTag` sends it the same GraphQL
 * requests (`/api/graphql`, whose `createTag` variables it writes as the tag service's aspects), as the floor no
 * server of that store can go below. Run as `node <bundle> <data dir>` (process.ts bundles it as mds's own bundle is
 * built).
 */
async function serveBareStore(dataDir: string) {
  const store = await openBareStore(openSqliteDatabase(join(dataDir, 'entities.db')));
  // Answers what `work` gives as JSON, or its failure as a 500.
  const answer = (res: Parameters<typeof sendJson>[0], work: () => Promise<unknown>) =>
    Promise.resolve()
      .then(work)
      .then(
        (body) => sendJson(res, 200, body),
        (error: Error) => sendJson(res, 500, { message: error.message }),
      );
  const server = createServer((req, res) => {
    if (req.method === 'POST' && req.url?.includes('action=ingestProposalBatch')) {
      return onBodyText(req, (text) =>
        answer(res, async () => ({
          value: { written: await store.ingest((JSON.parse(text) as { proposals: Proposals }).proposals, ACTOR) },
        })),
      );
    }
    if (req.method === 'POST' && req.url === '/api/graphql') {
      return onBodyText(req, (text) =>
        answer(res, async () => {
          const { urn, proposals } = tagProposals(JSON.parse(text) as Parameters<typeof tagProposals>[0]);
          await store.ingest(proposals, ACTOR);
          return { data: { createTag: urn } };
        }),
      );
    }
    sendJson(res, 404, { message: 'not here' });
  });
  listenAnnounced(server, 'bare store', () => store.close());
}

await serveBareStore(process.argv[2]!);
