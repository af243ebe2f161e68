/**
 * Whether an error says the database cannot be reached right now, rather than that a statement was wrong: the server
 * down or restarting, a connection cut, no connection to be had in time. A server answers such a request 503 (and
 * `/health` reports the database down); the same request may succeed once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code = '', message = '' } = (error ?? {}) as { code?: string; message?: string };
  return (
    code.startsWith('08') || // connection_exception
    code.startsWith('57P0') || // admin_shutdown, crash_shutdown, cannot_connect_now (a restart)
    code === '53300' || // too_many_connections
    ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'].includes(code) ||
    /Connection terminated|not queryable|timeout exceeded when trying to connect/i.test(message)
  );
}
