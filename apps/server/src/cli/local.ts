import { compose } from '../compose';
import { configFromEnv } from './run';

/** Runs a command against the local data directory (DATA_DIR) with the same composition the server uses. */
export async function withLocalDomains<T>(body: (domains: Awaited<ReturnType<typeof compose>>) => Promise<T> | T): Promise<T> {
  const domains = await compose(configFromEnv());
  try {
    return await body(domains);
  } finally {
    for (const module of [...domains.modules].reverse()) await module.close?.();
  }
}
