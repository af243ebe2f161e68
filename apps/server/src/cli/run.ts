import { loadConfig, type Config } from '../config';

/** Thrown for a failure the user can act on: printed as one line on stderr, exit code 1. */
export class CliError extends Error {}

/** Runs a command body with the shared conventions: errors on stderr, exit 2 for bad config/usage, 1 otherwise. */
export function command<Args extends unknown[]>(body: (...args: Args) => Promise<void> | void) {
  return async (...args: Args) => {
    try {
      await body(...args);
    } catch (error) {
      // The host's and the packages' configuration errors (ConfigurationError, TimeseriesConfigError): exit 2, like usage.
      const usage = error instanceof Error && /Config(uration)?Error$/.test(error.name);
      const known = usage || error instanceof CliError || (error instanceof Error && error.name !== 'Error');
      process.stderr.write(`mds: ${known ? error.message : String((error as Error)?.stack ?? error)}\n`);
      process.exit(usage ? 2 : 1);
    }
  };
}

export const configFromEnv = (): Config => loadConfig(process.env);
