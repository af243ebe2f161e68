import { ALL_PRIVILEGES, ROOT_ACTOR_URN } from '@mds/auth';
import { createMdsClient, MdsError, type MetadataChangeProposal } from '@mds/client';
import { fileItemProposals, type EntityService, type PlacedProposal } from '@mds/entities';
import { isApiError } from '@mds/schema';
import { InvalidArgumentError, type Command } from 'commander';
import { createReadStream, statSync } from 'node:fs';
import { jsonArrayElements } from './json-array';
import { withLocalDomains } from './local';
import { addTargetOptions, type TargetOptions } from './remote';
import { CliError, command } from './run';

/** Where proposals go: this process's store on DATA_DIR, or a server. */
interface Destination {
  /** Ingests a batch all or nothing; a refusal (4xx) rejects with `Refused`, anything else aborts the command. */
  send(batch: readonly PlacedProposal[]): Promise<{ written: number; unchanged: number } | { accepted: number }>;
}

class Refused extends Error {}

interface Summary {
  items: number;
  proposals: number;
  written: number;
  unchanged: number;
  /** Accepted by a server, which does not say which were new (remote mode). */
  accepted: number;
  failed: { where: string; reason: string }[];
}

const positiveInt = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new InvalidArgumentError('must be an integer from 1 to 10000');
  return n;
};

export function registerIngestCommand(program: Command): void {
  addTargetOptions(
    program
      .command('ingest')
      .description(
        'load DataHub JSON files (arrays of MCEs and MCPs, as `datahub ingest` file sources read them) into DATA_DIR or the server at --url',
      )
      .argument('<files...>', 'JSON files')
      .option('--batch-size <n>', 'proposals per ingestProposalBatch call', positiveInt, 500),
  ).action(
    command(async (files: string[], options: TargetOptions & { batchSize: number }, cmd: Command) => {
      for (const file of files) {
        try {
          statSync(file);
        } catch {
          throw new CliError(`cannot read ${file}: no such file`);
        }
      }
      const summary = await withDestination(options, cmd, (destination) => ingestFiles(files, destination, options.batchSize));
      process.stdout.write(formatSummary(summary));
      if (summary.failed.length) process.exitCode = 1;
    }),
  );
}

async function withDestination<T>(options: TargetOptions, cmd: Command, body: (destination: Destination) => Promise<T>): Promise<T> {
  if (!options.url) return withLocalDomains((domains) => body(localDestination(domains.entities.service)));
  if (!options.token) cmd.error('mds: --url needs an access token: pass --token <token> or set MDS_TOKEN', { exitCode: 2 });
  return body(remoteDestination(options.url, options.token));
}

function localDestination(service: EntityService): Destination {
  // The operator owns the data directory: they act as the root user, as `mds token create` does.
  const actor = { urn: ROOT_ACTOR_URN, privileges: ALL_PRIVILEGES };
  return {
    async send(batch) {
      try {
        const { written, unchanged, skipped } = await service.ingest(actor, batch, { batch: batch.length > 1 });
        return { written, unchanged: unchanged + skipped };
      } catch (error) {
        if (isApiError(error) && error.status < 500) throw new Refused(error.message);
        throw error;
      }
    },
  };
}

function remoteDestination(url: string, token: string): Destination {
  const client = createMdsClient({ url, token });
  return {
    async send(batch) {
      const proposals = batch.map((p) => p.proposal as MetadataChangeProposal);
      try {
        await (proposals.length === 1 ? client.ingestProposal(proposals[0]!) : client.ingestProposalBatch(proposals));
        return { accepted: proposals.length };
      } catch (error) {
        if (error instanceof MdsError && error.status < 500 && error.status !== 401 && error.status !== 403)
          throw new Refused(error.message);
        if (error instanceof MdsError) throw new CliError(`${error.message} (HTTP ${error.status} from ${url})`);
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        if (error instanceof TypeError && cause) throw new CliError(`cannot reach ${url}: ${cause.code ?? cause.message}`);
        throw error;
      }
    },
  };
}

/**
 * Streams every file's items, in batches. A refused batch (all or nothing on the server) is sent again item by item,
 * so the good items land and each bad one is reported with its reason.
 */
async function ingestFiles(files: readonly string[], destination: Destination, batchSize: number): Promise<Summary> {
  const summary: Summary = { items: 0, proposals: 0, written: 0, unchanged: 0, accepted: 0, failed: [] };
  const progress = progressLine();
  const count = (result: Awaited<ReturnType<Destination['send']>>) => {
    if ('accepted' in result) summary.accepted += result.accepted;
    else {
      summary.written += result.written;
      summary.unchanged += result.unchanged;
    }
  };
  const flush = async (batch: PlacedProposal[]) => {
    if (batch.length === 0) return;
    summary.proposals += batch.length;
    try {
      return count(await destination.send(batch));
    } catch (error) {
      if (!(error instanceof Refused) || batch.length === 1) {
        if (error instanceof Refused) return void summary.failed.push({ where: batch[0]!.place.path, reason: error.message });
        throw error;
      }
    }
    for (const one of batch) {
      try {
        count(await destination.send([one]));
      } catch (error) {
        if (!(error instanceof Refused)) throw error;
        summary.failed.push({ where: one.place.path, reason: error.message });
      }
    }
  };

  for (const file of files) {
    const size = statSync(file).size;
    const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    let batch: PlacedProposal[] = [];
    let index = 0;
    try {
      for await (const item of jsonArrayElements(stream)) {
        const where = `${file}[${index++}]`;
        summary.items++;
        try {
          batch.push(...fileItemProposals(item, where));
        } catch (error) {
          summary.failed.push({ where, reason: (error as Error).message });
        }
        if (batch.length >= batchSize) {
          await flush(batch);
          batch = [];
          progress(file, stream.bytesRead / size, summary.items);
        }
      }
    } catch (error) {
      if (error instanceof SyntaxError) throw new CliError(`${file}: ${error.message}`);
      throw error;
    }
    await flush(batch);
    progress(file, 1, summary.items);
  }
  progress.done();
  return summary;
}

/** A progress line on stderr, redrawn in place, when stderr is a terminal; nothing when piped. */
function progressLine() {
  const tty = process.stderr.isTTY;
  const draw = (file: string, fraction: number, items: number) => {
    if (!tty) return;
    const width = 24;
    const filled = Math.round(Math.min(1, fraction) * width);
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${items} items  ${file}\x1b[K`,
    );
  };
  return Object.assign(draw, { done: () => tty && process.stderr.write('\n') });
}

export function formatSummary(summary: Summary): string {
  const lines = [`Read ${summary.items} items (${summary.proposals} aspects).`];
  if (summary.accepted) lines.push(`Accepted: ${summary.accepted}`);
  if (summary.written || summary.unchanged || !summary.accepted)
    lines.push(`Written: ${summary.written}`, `Unchanged: ${summary.unchanged}`);
  lines.push(`Failed: ${summary.failed.length}`);
  for (const { where, reason } of summary.failed) lines.push(`  ${where}: ${reason.replaceAll('\n', ' ')}`);
  return `${lines.join('\n')}\n`;
}
