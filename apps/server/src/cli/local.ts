import { compose } from '../compose';
import { configFromEnv } from './run';

import type { Config } from '../config';

/** Runs a command against the configured storage (DATA_DIR, or DATABASE_URL) with the composition the server uses. */
export async function withLocalDomains<T>(
  body: (domains: Awaited<ReturnType<typeof compose>>) => Promise<T> | T,
  config: Config = configFromEnv(),
): Promise<T> {
  const domains = await compose(config);
  try {
    return await body(domains);
  } finally {
    for (const module of [...domains.modules].reverse()) await module.close?.();
  }
}
