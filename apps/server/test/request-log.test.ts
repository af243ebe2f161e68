import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { requestLogger } from '../src/logger';

/** A logger writing into memory; `writes` holds each write the stream received. */
function memoryLogger(level: string) {
  const writes: string[] = [];
  return { logger: pino({ level, base: undefined }, { write: (text: string) => void writes.push(text) }), writes };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the request log line', () => {
  it('is a pino-format JSON line per request, escaping what the client chose', async () => {
    const { logger, writes } = memoryLogger('info');
    const log = requestLogger(logger)!;
    log({ requestId: 'r-1', method: 'POST', path: '/api/"graphql"\n', operation: 'tag', status: 200, ms: 1.25 });
    log({ requestId: 'r-2', method: 'GET', path: '/health', operation: '', status: 503, ms: 0.5 });
    await nextTurn();
    const lines = writes.join('').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      { level: 30, time: expect.any(Number), requestId: 'r-1', method: 'POST', path: '/api/"graphql"\n', operation: 'tag', status: 200, ms: 1.25, msg: 'request' },
      { level: 30, time: expect.any(Number), requestId: 'r-2', method: 'GET', path: '/health', status: 503, ms: 0.5, msg: 'request' },
    ]);
  });

  it('writes the lines of one turn of the event loop together, and each turn’s apart', async () => {
    const { logger, writes } = memoryLogger('info');
    const log = requestLogger(logger)!;
    const line = { requestId: 'r', method: 'GET', path: '/health', operation: '', status: 200, ms: 1 };
    log(line);
    log(line);
    expect(writes).toEqual([]);
    await nextTurn();
    log(line);
    await nextTurn();
    expect(writes.map((w) => w.split('\n').length - 1)).toEqual([2, 1]);
  });

  it('is off when the level is above info', () => {
    expect(requestLogger(memoryLogger('warn').logger)).toBeUndefined();
  });
});
