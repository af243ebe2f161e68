import { isDatabaseUnavailable } from '@mds/db';
import { ApiError, unavailable } from '@mds/schema';

/** What a request hears while the database cannot be reached (a PostgreSQL restart, a cut connection, a full pool). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable right now; retry shortly.';

/** How long a client is asked to wait before retrying (`retry-after`, seconds). */
export const RETRY_AFTER_SECONDS = '1';

/**
 * Whether `error`, or an error it wraps (a `cause`, a GraphQL error's original), says the database cannot be reached.
 * An ApiError is the caller's answer already, whatever its message quotes.
 */
export function isUnreachable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (current instanceof ApiError) return false;
    if (isDatabaseUnavailable(current)) return true;
    const wrapper = current as { originalError?: unknown; cause?: unknown };
    current = wrapper.originalError ?? wrapper.cause;
  }
  return false;
}

/** The 503 a request that met an unreachable database answers, as an ApiError every path knows how to send. */
export const databaseUnavailable = (): ApiError => unavailable(DATABASE_UNAVAILABLE_MESSAGE);
