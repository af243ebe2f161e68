import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { freshDataDir } from '../support/child';
import { existingTags, sleep, spawnLive, systemClient } from '../support/live';

// SIGTERM while clients keep writing: every request the server started is answered (2xx, durable), no request is
// applied without its answer reaching the client, the process exits 0.
const WORKERS = 8;

interface Outcomes {
  acknowledged: string[];
  /** Requests that got no answer, with the client's error: the server must not have applied them. */
  unanswered: { id: string; error: string }[];
}

/** Creates tags until the server is gone (connection refused), recording what was answered and what was not. */
async function createUntilRefused(api: ApiClient, worker: number, outcomes: Outcomes): Promise<void> {
  for (let i = 0; ; i++) {
    const id = `w${worker}-${i}`;
    try {
      const { status, body } = await api.graphql(`mutation { createTag(input: { id: "${id}", name: "${id}" }) }`);
      if (status !== 200 || body.data?.createTag !== `urn:li:tag:${id}`)
        throw new Error(`unexpected answer ${status} ${JSON.stringify(body)}`);
      outcomes.acknowledged.push(id);
    } catch (error) {
      const cause = String((error as Error & { cause?: { code?: string } }).cause?.code ?? (error as Error).message);
      if (cause.startsWith('unexpected answer')) throw error;
      outcomes.unanswered.push({ id, error: cause });
      if (cause === 'ECONNREFUSED') return;
      await sleep(5);
    }
  }
}

describe('graceful shutdown under load', () => {
  it('SIGTERM: in-flight requests are answered, every 2xx is durable, nothing unanswered was applied, exit 0', async () => {
    const DATA_DIR = freshDataDir('shutdown');
    const server = await spawnLive({ DATA_DIR });
    const outcomes: Outcomes = { acknowledged: [], unanswered: [] };
    const load = Array.from({ length: WORKERS }, (_, w) => createUntilRefused(systemClient(server), w, outcomes));
    await sleep(600);
    const signalled = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    const exitMs = Date.now() - signalled;
    await Promise.all(load);

    const again = await spawnLive({ DATA_DIR });
    try {
      const api = systemClient(again);
      const urnsOf = (ids: string[]) => ids.map((id) => `urn:li:tag:${id}`);
      expect(await existingTags(api, urnsOf(outcomes.acknowledged))).toEqual(urnsOf(outcomes.acknowledged));
      expect(await existingTags(api, urnsOf(outcomes.unanswered.map((u) => u.id)))).toEqual([]);
    } finally {
      await again.stop();
    }
    const errors = [...new Set(outcomes.unanswered.map((u) => u.error))].join(', ');
    console.info(
      `shutdown: exit after ${exitMs} ms; ${outcomes.acknowledged.length} acknowledged and durable; ${outcomes.unanswered.length} unanswered (${errors}), none applied`,
    );
    expect(outcomes.acknowledged.length).toBeGreaterThan(0);
    // Draining waits neither for the shutdown timeout (10 s) nor for keep-alive connections to idle out (5 s):
    // each connection closes after the answer it was serving.
    expect(exitMs).toBeLessThan(2_000);
  }, 60_000);
});
