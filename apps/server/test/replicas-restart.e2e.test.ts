import { startOwnPostgresServer, type OwnPostgresServer } from '@mds/db/testing';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { type ChildServer } from './support/child';
import { existingTags, sleep, SYSTEM_AUTH } from './support/live';
import { aspectPath, clientOf, CREATE_TAG, datasetProperties, sharedSecrets, spawnReplica } from './support/replicas';

// A PostgreSQL restart under a steady load of writes spread over two replicas: while the server is down every request
// answers a JSON 503 with retry-after (never a 500, never a hang) and /health says the database is down; once it is
// back both replicas serve again by themselves, and every write they acknowledged is there. The server is one of this
// file's own (the shared test server is never restarted).
vi.setConfig({ testTimeout: 90_000, hookTimeout: 120_000 });

/** Past this a request counts as hung: well under the server's 60 s request timeout, over the pool's 10 s connect wait. */
const REQUEST_TIMEOUT_MS = 15_000;
/** How long after the server is back both replicas must answer 200 again. */
const RECOVERY_MS = 10_000;
/** /health reuses one answer for a second. */
const HEALTH_CACHE_MS = 1_000;

let postgres: OwnPostgresServer;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  postgres = await startOwnPostgresServer();
  const secrets = sharedSecrets();
  [a, b] = await Promise.all([spawnReplica(postgres.url, secrets), spawnReplica(postgres.url, secrets)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await postgres?.dispose();
});

interface Answer {
  /** The HTTP status; 0 when no answer came (a reset connection, or none within REQUEST_TIMEOUT_MS). */
  status: number;
  body: any;
  retryAfter: string | null;
  contentType: string | null;
  /** performance.now() when it was sent and when it was answered. */
  sent: number;
  answered: number;
  error?: string;
}

/** One request as the system client, timed, never throwing: a hang or a reset is an answer of status 0. */
async function send(replica: ChildServer, path: string, body?: unknown): Promise<Answer> {
  const sent = performance.now();
  try {
    const res = await fetch(replica.url + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: SYSTEM_AUTH, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    const json = (() => {
      try {
        return text ? JSON.parse(text) : undefined;
      } catch {
        return text;
      }
    })();
    return {
      status: res.status,
      body: json,
      retryAfter: res.headers.get('retry-after'),
      contentType: res.headers.get('content-type'),
      sent,
      answered: performance.now(),
    };
  } catch (error) {
    return { status: 0, body: undefined, retryAfter: null, contentType: null, sent, answered: performance.now(), error: String(error) };
  }
}

interface Write {
  replica: 'A' | 'B';
  answer: Answer;
  /** The dataset whose datasetProperties it ingested, or the tag it created. */
  dataset?: string;
  tag?: string;
}

/** Writes every `everyMs` until stop() (one in three a Rest.li ingestion, the others createTag), alternating A and B. */
function steadyLoad(label: string, everyMs = 20) {
  const writes: Promise<Write>[] = [];
  let running = true;
  const loop = (async () => {
    for (let i = 0; running; i++) {
      const replica = i % 2 ? 'A' : 'B';
      const server = i % 2 ? a : b;
      if (i % 3 === 0) {
        const dataset = `db.${label}${i}`;
        writes.push(
          send(server, '/aspects?action=ingestProposal', { proposal: datasetProperties(dataset, `write ${i}`) }).then((answer) => ({
            replica,
            answer,
            dataset,
          })),
        );
      } else {
        const tag = `urn:li:tag:${label}-${i}`;
        writes.push(
          send(server, '/api/graphql', { query: CREATE_TAG, variables: { i: { id: `${label}-${i}`, name: `${label} ${i}` } } }).then(
            (answer) => ({ replica, answer, tag }),
          ),
        );
      }
      await sleep(everyMs);
    }
  })();
  return {
    async stop(): Promise<Write[]> {
      running = false;
      await loop;
      return Promise.all(writes);
    },
  };
}

/** Polls /health of both replicas every 200 ms until stop(). */
function healthWatch() {
  const answers: { replica: 'A' | 'B'; answer: Answer }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const [ofA, ofB] = await Promise.all([send(a, '/health'), send(b, '/health')]);
      answers.push({ replica: 'A', answer: ofA }, { replica: 'B', answer: ofB });
      await sleep(200);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return answers;
    },
  };
}

/** When both replicas answer a write and /health with 200 again, polled every 100 ms; fails past RECOVERY_MS. */
async function recovered(since: number, label: string): Promise<number> {
  for (let i = 0; ; i++) {
    const answers = await Promise.all(
      [a, b].flatMap((replica) => [
        send(replica, '/health'),
        send(replica, '/aspects?action=ingestProposal', { proposal: datasetProperties(`db.${label}-probe${i}`, 'probe') }),
      ]),
    );
    if (answers.every((answer) => answer.status === 200)) return performance.now();
    if (performance.now() - since > RECOVERY_MS)
      throw new Error(`not recovered ${RECOVERY_MS} ms after PostgreSQL was back: ${JSON.stringify(answers)}`);
    await sleep(100);
  }
}

/** A JSON 503 saying the database is unavailable, with retry-after. */
function expectUnavailable(answer: Answer) {
  expect(answer.status, JSON.stringify(answer)).toBe(503);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(answer.retryAfter).toBe('1');
  expect(JSON.stringify(answer.body)).toMatch(/database is unavailable/);
}

/** Every acknowledged write is read back on both replicas; nothing was logged as an error; neither process restarted. */
async function expectNothingAcknowledgedLost(writes: Write[]) {
  const acknowledged = writes.filter((w) => w.answer.status === 200);
  const tags = acknowledged.flatMap((w) => (w.tag ? [w.tag] : []));
  const datasets = acknowledged.flatMap((w) => (w.dataset ? [w.dataset] : []));
  for (const w of acknowledged.filter((w) => w.tag)) expect(w.answer.body).toEqual({ data: { createTag: w.tag } });
  for (const replica of [a, b]) {
    expect(await existingTags(clientOf(replica), tags)).toEqual(tags);
    for (const dataset of datasets) expect((await clientOf(replica).get(aspectPath(dataset))).status, dataset).toBe(200);
    expect(replica.process.exitCode).toBeNull();
    expect(replica.process.signalCode).toBeNull();
    expect(replica.stdout()).not.toMatch(/"level":50/);
  }
}

/**
 * The scenario of both tests: a second of load, PostgreSQL stopped (`mode`) and kept down `downMs`, started again;
 * load until both replicas have served for a second. Checks every answer and returns the writes.
 */
async function restartUnderLoad(label: string, mode: 'fast' | 'immediate', downMs: number) {
  const load = steadyLoad(label);
  const health = healthWatch();
  await sleep(1_000);
  await postgres.stop(mode);
  const down = performance.now();
  await sleep(downMs);
  const up = performance.now();
  await postgres.start();
  const back = performance.now();
  const serving = await recovered(back, label);
  await sleep(1_000);
  const writes = await load.stop();
  const healths = await health.stop();

  // Every request answered in time, 200 or a JSON 503: never a 500, never a reset, never a hang.
  for (const { answer } of [...writes, ...healths]) {
    expect(answer.error, answer.error).toBeUndefined();
    expect([200, 503], JSON.stringify(answer)).toContain(answer.status);
    expect(answer.answered - answer.sent).toBeLessThan(REQUEST_TIMEOUT_MS);
  }
  for (const { answer } of writes) if (answer.status === 503) expectUnavailable(answer);
  // Acknowledged before the stop, on both replicas.
  for (const replica of ['A', 'B'])
    expect(writes.some((w) => w.replica === replica && w.answer.answered < down && w.answer.status === 200)).toBe(true);
  // While it was down, every write sent is refused with a JSON 503, on both replicas.
  const whileDown = writes.filter((w) => w.answer.sent > down && w.answer.answered < up);
  for (const replica of ['A', 'B']) expect(whileDown.filter((w) => w.replica === replica).length).toBeGreaterThan(0);
  for (const w of whileDown) expectUnavailable(w.answer);
  // /health said so, once its cached answer of before had expired.
  const healthDown = healths.filter((h) => h.answer.sent > down + HEALTH_CACHE_MS && h.answer.answered < up);
  for (const replica of ['A', 'B']) expect(healthDown.filter((h) => h.replica === replica).length).toBeGreaterThan(0);
  for (const { answer } of healthDown)
    expect(answer).toMatchObject({
      status: 503,
      body: { status: 'unavailable', reason: expect.stringMatching(/^database: PostgreSQL unreachable/) },
    });
  // Back: every write sent once both served again is acknowledged, on both.
  const after = writes.filter((w) => w.answer.sent > serving);
  for (const replica of ['A', 'B']) expect(after.filter((w) => w.replica === replica && w.answer.status === 200).length).toBeGreaterThan(0);
  expect(after.filter((w) => w.answer.status !== 200)).toEqual([]);
  await expectNothingAcknowledgedLost(writes);
  return { writes, recoveryMs: serving - back };
}

it('PostgreSQL stopped (fast shutdown) for 3 s during writes on A and B, then started: 503s while down, both recover by themselves, nothing acknowledged lost', async () => {
  const { writes, recoveryMs } = await restartUnderLoad('fast', 'fast', 3_000);
  expect(writes.filter((w) => w.answer.status === 503).length).toBeGreaterThan(20);
  expect(recoveryMs).toBeLessThan(RECOVERY_MS);
});

it('PostgreSQL crashed (immediate shutdown) during writes and started again 2 s later: the same, and crash recovery kept every acknowledged write', async () => {
  const { writes } = await restartUnderLoad('crash', 'immediate', 2_000);
  expect(writes.filter((w) => w.answer.status === 503).length).toBeGreaterThan(0);
});
