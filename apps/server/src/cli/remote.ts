import { ALL_PRIVILEGES, ROOT_ACTOR_URN } from '@mds/auth';
import { createMdsClient, MdsError, type EsTaskStatus, type IndexSize, type TruncateTimeseriesAspectParams } from '@mds/client';
import type { ApiContext, ApiModule } from '@mds/schema';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { randomUUID } from 'node:crypto';
import { createRestliDispatcher } from '../restli';
import { withLocalDomains } from './local';
import { CliError } from './run';

/** The operations endpoint, wherever it runs: a server at --url, or this process on DATA_DIR. */
export interface Operations {
  /** `http://host:port`, or `local` for the data directory. */
  readonly where: string;
  readonly local: boolean;
  getIndexSizes(): Promise<IndexSize[]>;
  truncateTimeseriesAspect(params: TruncateTimeseriesAspectParams): Promise<string>;
  getEsTaskStatus(task: string): Promise<EsTaskStatus>;
}

export interface TargetOptions {
  url?: string;
  token?: string;
}

const httpUrl = (value: string) => {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !['http:', 'https:'].includes(url.protocol))
    throw new InvalidArgumentError('must be an http(s) URL, e.g. http://localhost:8080');
  return value.replace(/\/+$/, '');
};

/** `--url` and `--token` (or MDS_TOKEN): without --url the command works on the local data directory. */
export function addTargetOptions(command: Command): Command {
  return command
    .addOption(new Option('--url <url>', 'call the mds server at this URL instead of reading DATA_DIR').argParser(httpUrl))
    .addOption(new Option('--token <token>', 'access token for --url').env('MDS_TOKEN'));
}

/**
 * Runs `body` against the server (through @mds/client) or against the local store, where the same Rest.li
 * actions the server dispatches run in this process as the root user. The local store stays open until `body`
 * returns: embedded truncations run in this process's workers.
 */
export async function withOperations<T>(options: TargetOptions, command: Command, body: (ops: Operations) => Promise<T>): Promise<T> {
  if (!options.url) return withLocalDomains((domains) => body(localOperations(domains.modules)));
  if (!options.token) command.error('mds: --url needs an access token: pass --token <token> or set MDS_TOKEN', { exitCode: 2 });
  return body(remoteOperations(options.url, options.token));
}

function remoteOperations(url: string, token: string): Operations {
  const client = createMdsClient({ url, token });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof MdsError) throw new CliError(`${error.message} (HTTP ${error.status} from ${url})`);
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (error instanceof TypeError && cause) throw new CliError(`cannot reach ${url}: ${cause.code ?? cause.message}`);
      throw error;
    }
  };
  return {
    where: url,
    local: false,
    getIndexSizes: () => call(() => client.operations.getIndexSizes()),
    truncateTimeseriesAspect: (params) => call(() => client.operations.truncateTimeseriesAspect(params)),
    getEsTaskStatus: (task) => call(() => client.operations.getEsTaskStatus(task)),
  };
}

function localOperations(modules: readonly ApiModule[]): Operations {
  const restli = createRestliDispatcher(modules.flatMap((m) => m.actions ?? []));
  // The operator owns the data directory: they act as the root user, as `mds token create` does.
  const context: ApiContext = { actor: { urn: ROOT_ACTOR_URN, privileges: ALL_PRIVILEGES }, requestId: `cli-${randomUUID()}` };
  const run = async <T>(name: string, params: object) => (await restli.run(restli.find('operations', name), params, context)).value as T;
  return {
    where: 'local',
    local: true,
    getIndexSizes: async () => (await run<{ indexSizes: IndexSize[] }>('getIndexSizes', {})).indexSizes,
    truncateTimeseriesAspect: (params) => run<string>('truncateTimeseriesAspect', params),
    getEsTaskStatus: async (task) => JSON.parse(await run<string>('getEsTaskStatus', { task })) as EsTaskStatus,
  };
}
