import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { requestLogger } from '../src/logger';
import { freshDataDir, spawnServer, type ChildServer } from './support/child';

/** A logger writing into memory; `writes` holds each write the stream received. */
function memoryLogger(level: string) {
  const writes: string[] = [];
  return { logger: pino({ level, base: undefined }, { write: (text: string) => void writes.push(text) }), writes };
}

describe('the request log line', () => {
  it('is a pino-format JSON line per request, escaping what the client chose', () => {
    const { logger, writes } = memoryLogger('info');
    const log = requestLogger(logger)!;
    log({ requestId: 'r-1', method: 'POST', path: '/api/"graphql"\n', operation: 'tag', status: 200, ms: 1.25 });
    log({ requestId: 'r-2', method: 'GET', path: '/health', operation: '', status: 503, ms: 0.5 });
    const lines = writes
      .join('')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        level: 30,
        time: expect.any(Number),
        requestId: 'r-1',
        method: 'POST',
        path: '/api/"graphql"\n',
        operation: 'tag',
        status: 200,
        ms: 1.25,
        msg: 'request',
      },
      { level: 30, time: expect.any(Number), requestId: 'r-2', method: 'GET', path: '/health', status: 503, ms: 0.5, msg: 'request' },
    ]);
  });

  it('is off when the level is above info', () => {
    expect(requestLogger(memoryLogger('warn').logger)).toBeUndefined();
  });
});

describe('the server’s log, written in batches', () => {
  let server: ChildServer | undefined;
  afterAll(() => server?.stop());

  it('still shows a quiet server’s request at once (within the 100 ms flush), and every line at exit', async () => {
    server = await spawnServer({ DATA_DIR: freshDataDir('log'), LOG_LEVEL: 'info' });
    await fetch(`${server.url}/health`, { headers: { 'x-request-id': 'seen-promptly' } });
    await expect.poll(() => server!.stdout(), { timeout: 2000, interval: 50 }).toContain('"requestId":"seen-promptly"');
    for (let i = 0; i < 50; i++) await fetch(`${server.url}/health`, { headers: { 'x-request-id': `at-exit-${i}` } });
    expect(await server.stop()).toBe(0);
    const ids = server
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { requestId?: string }).requestId);
    for (let i = 0; i < 50; i++) expect(ids).toContain(`at-exit-${i}`);
  });
});
