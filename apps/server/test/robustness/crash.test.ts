import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { freshDataDir } from '../support/child';
import { existingTags, sleep, spawnLive, systemClient } from '../support/live';
import { databasesOf, integrityOf, schemaObjects } from '../support/sqlite-files';
import {
  T0,
  countBetween,
  dryRunCount,
  ingestRange,
  pollTask,
  profileProposal,
  startTruncation,
  taskStatus,
} from '../support/timeseries-data';

// `mds serve` killed with SIGKILL (no shutdown code runs) while it writes: what it acknowledged is there after a
// restart, and both SQLite files pass integrity_check. Kill moments are random; set CRASH_KILLS for more rounds.
const KILLS = Number(process.env.CRASH_KILLS || 4);
const WORKERS = 6;

/** What the load got a 2xx for, and the writes whose fate is unknown (sent, then the process died). */
interface Ledger {
  tags: string[];
  /** Per worker and round: documents [from, from + count) were acknowledged, contiguous because each worker writes in order. */
  documents: { from: number; count: number }[];
  /** Batches without an answer: all or nothing of each must be there (a batch is one transaction). */
  inDoubt: { from: number; count: number }[];
}

/**
 * One worker's loop until the server dies: creates tags and ingests batches of 1–20 documents at consecutive
 * timestamps of its own range, recording every acknowledged write.
 */
async function writeUntilDead(api: ApiClient, ledger: Ledger, name: string, base: number): Promise<void> {
  const documents = { from: base, count: 0 };
  ledger.documents.push(documents);
  for (let i = 0; ; i++) {
    try {
      if (i % 2 === 0) {
        const id = `${name}-${i}`;
        const { status, body } = await api.graphql(`mutation { createTag(input: { id: "${id}", name: "${id}" }) }`);
        if (status === 200 && body.data?.createTag === `urn:li:tag:${id}`) ledger.tags.push(body.data.createTag);
        else throw new Error(`createTag answered ${status} ${JSON.stringify(body)}`);
      } else {
        const size = 1 + ((i * 7) % 20);
        const from = documents.from + documents.count;
        const batch = Array.from({ length: size }, (_, k) => profileProposal(T0 + from + k));
        try {
          const { status } = await api.ingest(batch);
          if (status !== 200) throw new Error(`ingestion answered ${status}`);
        } catch (error) {
          ledger.inDoubt.push({ from, count: size });
          throw error;
        }
        documents.count += size;
      }
    } catch (error) {
      if (/fetch failed|ECONNRESET|ECONNREFUSED|socket/i.test(String((error as Error).cause ?? error))) return; // the kill
      throw error;
    }
  }
}

/** Every acknowledged write is readable through the API of the restarted server. */
async function verify(api: ApiClient, ledger: Ledger): Promise<number> {
  expect(await existingTags(api, ledger.tags)).toEqual(ledger.tags);
  for (const { from, count } of ledger.documents) if (count > 0) expect(await countBetween(api, from, from + count - 1)).toBe(count);
  for (const { from, count } of ledger.inDoubt) expect([0, count]).toContain(await countBetween(api, from, from + count - 1));
  return ledger.tags.length + ledger.documents.reduce((sum, d) => sum + d.count, 0);
}

const expectIntact = (dataDir: string) => {
  for (const file of databasesOf(dataDir)) expect(integrityOf(file), file).toBe('ok');
};

describe('SIGKILL under concurrent tag and ingestion load', () => {
  it(`${KILLS} kills at random moments: every acknowledged write survives, integrity_check stays ok`, async () => {
    const DATA_DIR = freshDataDir('crash');
    const ledger: Ledger = { tags: [], documents: [], inDoubt: [] };
    const moments: number[] = [];
    let verified = 0;
    for (let round = 0; round < KILLS; round++) {
      const server = await spawnLive({ DATA_DIR });
      let load: Promise<void>[] = [];
      try {
        const api = systemClient(server);
        if (round > 0) verified = await verify(api, ledger);
        load = Array.from({ length: WORKERS }, (_, w) => writeUntilDead(api, ledger, `r${round}w${w}`, (round * WORKERS + w) * 1_000_000));
        const moment = 150 + Math.round(Math.random() * 1_000);
        moments.push(moment);
        await sleep(moment);
      } finally {
        expect(await server.stop('SIGKILL')).toBeNull();
      }
      await Promise.all(load);
      expectIntact(DATA_DIR);
    }
    const server = await spawnLive({ DATA_DIR });
    try {
      verified = await verify(systemClient(server), ledger);
    } finally {
      await server.stop();
    }
    expectIntact(DATA_DIR);
    console.info(
      `crash: ${KILLS} kills after ${moments.join(', ')} ms; ${verified} acknowledged writes verified (${ledger.tags.length} tags); ${ledger.inDoubt.length} unanswered batches all-or-nothing`,
    );
    expect(ledger.tags.length).toBeGreaterThan(0);
    expect(ledger.documents.some((d) => d.count > 0)).toBe(true);
  }, 120_000);
});

describe('SIGKILL during a truncation', () => {
  const ROWS = 40_000;

  /** Ingests ROWS documents, starts a slow truncation, and kills the server once the task has made progress. */
  async function killMidTruncation(endTimeMillis: number, progressed: (s: Awaited<ReturnType<typeof taskStatus>>) => boolean) {
    const DATA_DIR = freshDataDir('trunc');
    const server = await spawnLive({ DATA_DIR });
    let task: string;
    let seen: Awaited<ReturnType<typeof taskStatus>>;
    try {
      const api = systemClient(server);
      await ingestRange(api, 0, ROWS);
      const started = await startTruncation(api, endTimeMillis, { batchSize: 5 });
      expect(started.status).toBe(200);
      task = started.body.value as string;
      // pollTask throws unless the task completed or progressed; so, not completed, it has progressed.
      seen = await pollTask(api, task, (s) => s.completed || progressed(s), 20_000);
      expect(seen.completed, 'the truncation finished before it could be killed').toBe(false);
    } finally {
      expect(await server.stop('SIGKILL')).toBeNull();
    }
    expectIntact(DATA_DIR);
    return { DATA_DIR, task, seen };
  }

  const noScratchLeft = (dataDir: string) =>
    expect(schemaObjects(databasesOf(dataDir)[1]!).filter(({ name }) => /__(reindex|retired)_/.test(name))).toEqual([]);

  /** After an interrupted task, a new truncation up to `end` completes with `status` and leaves only the survivors. */
  async function truncatesCleanlyAgain(api: ApiClient, end: number, status: Record<string, number>) {
    const again = await startTruncation(api, T0 + end);
    expect(again.status).toBe(200);
    const done = await pollTask(api, again.body.value, (s) => s.completed);
    expect(done).toMatchObject({ status });
    expect(done.error).toBeUndefined();
    expect(await dryRunCount(api, T0 + end)).toEqual({ matching: 0, total: ROWS - end - 1 });
  }

  it('delete path: the task ends with an error, rows go in key order only, and a new truncation succeeds', async () => {
    const end = 9_999; // 10,000 of 40,000 rows: under half, so batches of deletes
    const { DATA_DIR, task, seen } = await killMidTruncation(T0 + end, (s) => s.status.deleted >= 50);
    const server = await spawnLive({ DATA_DIR });
    const api = systemClient(server);
    try {
      const after = await taskStatus(api, task);
      expect(after).toMatchObject({ completed: true, error: expect.stringMatching(/^Interrupted/) });
      expect(await countBetween(api, end + 1, ROWS - 1)).toBe(ROWS - end - 1); // every survivor is there
      // What was deleted is a prefix in key order, at least what the task had reported before the kill.
      const left = await countBetween(api, 0, end);
      expect(left).toBeLessThanOrEqual(end + 1 - seen.status.deleted);
      expect(await countBetween(api, end + 1 - left, end)).toBe(left);

      await truncatesCleanlyAgain(api, end, { deleted: left });
    } finally {
      await server.stop();
    }
    noScratchLeft(DATA_DIR);
    expectIntact(DATA_DIR);
  }, 90_000);

  it('reindex path: no half-swapped table, no scratch table left, the task ends with an error, a new truncation succeeds', async () => {
    const end = 29_999; // 30,000 of 40,000 rows: more than half, so the survivors are copied and the tables swapped
    const { DATA_DIR, task } = await killMidTruncation(T0 + end, (s) => s.status.created >= 50);
    const server = await spawnLive({ DATA_DIR });
    const api = systemClient(server);
    try {
      expect(await taskStatus(api, task)).toMatchObject({ completed: true, error: expect.stringMatching(/^Interrupted/) });
      // The swap never happened: the old table is whole, survivors and doomed rows alike.
      expect(await dryRunCount(api, T0 + end)).toEqual({ matching: end + 1, total: ROWS });
      expect(await countBetween(api, end + 1, ROWS - 1)).toBe(ROWS - end - 1);

      await truncatesCleanlyAgain(api, end, { created: ROWS - end - 1, deleted: end + 1 });
    } finally {
      await server.stop();
    }
    noScratchLeft(DATA_DIR);
    expectIntact(DATA_DIR);
  }, 90_000);
});
