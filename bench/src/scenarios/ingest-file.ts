import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '../children.ts';
import type { Scenario } from '../context.ts';
import { memoryOf } from '../proc-status.ts';

const PEAK_RSS_TARGET_MB = 300;

/** Item `i` of a DataHub JSON file: a schemaMetadata MCP (`aspect.json`, as newer goldens write) of 40 fields. */
function item(runId: string, i: number): string {
  const fields = Array.from({ length: 40 }, (_, f) => ({
    fieldPath: `column_${f}`,
    nullable: f % 3 === 0,
    description: `Column ${f} of table ${i}, as documented by its owners.`,
    type: { type: { 'com.linkedin.schema.StringType': {} } },
    nativeDataType: 'varchar(255)',
    recursive: false,
    isPartOfKey: f === 0,
  }));
  return JSON.stringify({
    entityType: 'dataset',
    entityUrn: `urn:li:dataset:(urn:li:dataPlatform:postgres,file_${runId}.table_${i},PROD)`,
    changeType: 'UPSERT',
    aspectName: 'schemaMetadata',
    aspect: {
      json: {
        schemaName: `table_${i}`,
        platform: 'urn:li:dataPlatform:postgres',
        version: 0,
        hash: '',
        created: { time: 0, actor: 'urn:li:corpuser:unknown' },
        lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' },
        platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
        fields,
      },
    },
    systemMetadata: { lastObserved: 1_700_000_000_000, runId: `file-${runId}` },
  });
}

/** Writes a JSON array of items until the file holds `megabytes`; answers how many items it has. */
async function writeFile(path: string, runId: string, megabytes: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let i = 0;
  out.write('[\n');
  while (bytes < megabytes * 1_000_000) {
    const text = `${i ? ',\n' : ''}${item(runId, i++)}`;
    bytes += text.length;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end('\n]\n');
  await once(out, 'finish');
  return i;
}

/** `mds ingest --url` of a large DataHub JSON file: its peak memory must not grow with the file. */
export const ingestFile: Scenario = {
  name: 'ingestFile',
  title: 'mds ingest of a large file',
  async run(context) {
    const { config, runId } = context;
    const path = join(makeTempDir('mds-bench-file-'), 'large.json');
    const items = await writeFile(path, runId, config.ingestFileMb);
    const megabytes = Math.round(statSync(path).size / 1_000_000);
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [context.mds.launch.path, 'ingest', path, '--url', context.target.url, '--token', context.target.token],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    let peakRssMb = 0;
    const sampler = setInterval(() => {
      try {
        peakRssMb = Math.max(peakRssMb, memoryOf(child.pid!).peakRssMb);
      } catch {
        // the process has just exited
      }
    }, 20);
    const [code] = (await once(child, 'close')) as [number | null];
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`mds ingest exited ${code}: ${output.slice(-500)}`);
    return {
      rows: [
        {
          label: `mds ingest of a ${megabytes} MB file (${items.toLocaleString('en-US')} schemaMetadata MCPs) to the server`,
          value: peakRssMb,
          unit: 'MB peak RSS',
          note: `${seconds.toFixed(1)} s, ${Math.round(items / seconds).toLocaleString('en-US')} aspects/s; ${output.trim().split('\n').join('; ')}`,
          target: { text: `< ${PEAK_RSS_TARGET_MB} MB`, met: peakRssMb < PEAK_RSS_TARGET_MB },
        },
      ],
      details: { megabytes, items, seconds, peakRssMb },
    };
  },
};
