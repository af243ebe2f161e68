import { openSqliteDatabase } from '@mds/db';
import { openBareStore } from '@mds/entities/raw-store';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/**
 * The **bare store**: mds's aspect store and search index on a SQLite file of their own, behind an HTTP server that
 * takes `ingestProposalBatch` bodies and writes them with no check at all (`@mds/entities/raw-store`: no body limits
 * or depth scan, no validation, no authorization, no service). What ingestion would cost if it checked nothing: the
 * batched-ingest scenario measures mds against it, batch for batch. Run as `node <bundle> <data dir>`
 * (process.ts bundles it as mds's own bundle is built).
 */
async function serveBareStore(dataDir: string) {
  const store = await openBareStore(openSqliteDatabase(join(dataDir, 'entities.db')));
  const bodyOf = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { proposals: Parameters<typeof store.ingest>[0] };
  };
  const server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
    };
    if (req.method !== 'POST' || !req.url?.includes('action=ingestProposalBatch')) return void send(404, { message: 'not here' });
    bodyOf(req)
      .then(({ proposals }) => store.ingest(proposals, 'urn:li:corpuser:bench'))
      .then(
        (written) => send(200, { value: { written } }),
        (error: Error) => send(500, { message: error.message }),
      );
  });
  server.keepAliveTimeout = 5_000;
  server.listen(0, '127.0.0.1', () => {
    process.stderr.write(`bare store listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.once('SIGTERM', () => server.close(() => void store.close().then(() => process.exit(0))));
}

await serveBareStore(process.argv[2]!);
