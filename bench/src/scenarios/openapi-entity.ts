import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir, spawnListening } from '../children.ts';
import type { Scenario } from '../context.ts';
import { postJson } from '../http.ts';
import { versusCeiling, type LoadRequest, type Target } from '../load.ts';
import { ratioRow } from '../report.ts';

const DATASETS = 100;
const MIN_RATIO = 0.5;

/**
 * The ceiling of an entity read: a bare node:http handler holding the very objects mds answered (read from mds just
 * before), which it serializes per request, as any JSON handler does. No auth beyond "a header is present", no store.
 */
const CEILING_SOURCE = `
const answers = new Map(Object.entries(JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))));
require('node:http').createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer || !req.headers.authorization) return void res.writeHead(404).end();
  const text = JSON.stringify(answer);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) }).end(text);
}).listen(0, '127.0.0.1', function () { process.stderr.write('ceiling listening on http://127.0.0.1:' + this.address().port + '\\n'); });
`;

const datasetUrn = (runId: string, k: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,openapi_${runId}.table_${k},PROD)`;
/** A dataset as ingestion leaves it: properties, schema-less tags, ownership, status. */
const datasetAspects = (k: number) => ({
  datasetProperties: {
    value: {
      name: `table_${k}`,
      description: `Bench table ${k}: orders and their lines`,
      customProperties: { team: 'sales', tier: String(k % 3) },
    },
  },
  globalTags: { value: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: `urn:li:tag:team${k % 5}` }] } },
  ownership: { value: { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }] } },
  status: { value: { removed: false } },
});

async function get(target: Target, path: string): Promise<{ ms: number; text: string }> {
  const started = performance.now();
  const response = await fetch(new URL(path, target.url), { headers: { authorization: `Bearer ${target.token}` } });
  const text = await response.text();
  if (!response.ok) throw new Error(`GET ${path} answered ${response.status}: ${text.slice(0, 300)}`);
  return { ms: performance.now() - started, text };
}

/** GET /openapi/v3/entity/dataset/{urn} against a bare node:http handler answering the same JSON; and api-docs caching. */
export const openapiEntity: Scenario = {
  name: 'openapiEntity',
  title: 'GET /openapi/v3/entity/dataset/{urn}',
  async run(context) {
    const { config, runId, target } = context;
    const urns = Array.from({ length: DATASETS }, (_, k) => datasetUrn(runId, k));
    await postJson(target, '/openapi/v3/entity/dataset?async=false', JSON.stringify(urns.map((urn, k) => ({ urn, ...datasetAspects(k) }))));
    const paths = urns.map((urn) => `/openapi/v3/entity/dataset/${encodeURIComponent(urn)}`);
    const answers = Object.fromEntries(
      await Promise.all(paths.map(async (path) => [path, JSON.parse((await get(target, path)).text)] as const)),
    );
    const answersFile = join(makeTempDir('mds-bench-openapi-'), 'answers.json');
    writeFileSync(answersFile, JSON.stringify(answers));
    const ceilingProcess = await spawnListening(process.execPath, ['-e', CEILING_SOURCE, answersFile], {
      env: { PATH: process.env.PATH, NODE_ENV: 'production' },
      urlPattern: /ceiling listening on (http:\/\/\S+)/,
      what: 'OpenAPI ceiling server',
    });
    try {
      let n = 0;
      const request: LoadRequest = { method: 'GET', path: paths[0]!, pathOf: () => paths[n++ % paths.length]! };
      const ceiling = { url: ceilingProcess.url, token: 'ceiling', pid: ceilingProcess.pid };
      const result = await versusCeiling(target, ceiling, [request], config);
      // The document is built on first use, then served from memory: the second call costs a copy, not a build.
      const first = await get(target, '/openapi/v3/api-docs');
      const again = await get(target, '/openapi/v3/api-docs');
      const sameBytes = first.text === again.text;
      return {
        rows: [
          ratioRow(`GET /openapi/v3/entity/dataset/{urn}, ${DATASETS} datasets of 5 aspects (vs node:http from memory)`, result, MIN_RATIO),
          {
            label: 'GET /openapi/v3/api-docs, after its first use (cached per process)',
            value: Math.round(again.ms * 10) / 10,
            unit: 'ms',
            note: `${(again.text.length / 1e6).toFixed(2)} MB; the call before took ${Math.round(first.ms)} ms; same bytes: ${sameBytes}`,
          },
        ],
        details: {
          connections: config.connections,
          datasets: DATASETS,
          ...result,
          apiDocs: { firstMs: first.ms, againMs: again.ms, bytes: again.text.length, sameBytes },
        },
      };
    } finally {
      await ceilingProcess.stop();
    }
  },
};
