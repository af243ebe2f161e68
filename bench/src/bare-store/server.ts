import { openSqliteDatabase } from '@mds/db';
import { openBareStore } from '@mds/entities/raw-store';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { listenAnnounced, onBodyText, sendJson } from '../json-http.ts';

/**
 * The **bare store**: mds's aspect store and search index on a SQLite file of their own, behind an HTTP server that
 * takes `ingestProposalBatch` bodies and writes them with no check at all (`@mds/entities/raw-store`: no body limits
 * or depth scan, no validation, no authorization, no service). What ingestion would cost if it checked nothing: the
 * batched-ingest scenario measures mds against it, batch for batch. Run as `node <bundle> <data dir>`
 * (process.ts bundles it as mds's own bundle is built).
 */
async function serveBareStore(dataDir: string) {
  const store = await openBareStore(openSqliteDatabase(join(dataDir, 'entities.db')));
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || !req.url?.includes('action=ingestProposalBatch')) return sendJson(res, 404, { message: 'not here' });
    onBodyText(req, (text) => {
      Promise.resolve()
        .then(() =>
          store.ingest((JSON.parse(text) as { proposals: Parameters<typeof store.ingest>[0] }).proposals, 'urn:li:corpuser:bench'),
        )
        .then(
          (written) => sendJson(res, 200, { value: { written } }),
          (error: Error) => sendJson(res, 500, { message: error.message }),
        );
    });
  });
  listenAnnounced(server, 'bare store', () => store.close());
}

await serveBareStore(process.argv[2]!);
