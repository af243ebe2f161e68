import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, type ChildServer } from './child';

// Talking to a spawned `mds serve` without the CLI: the system client (Basic id:secret) has every privilege and
// needs no token minted beforehand, which saves a CLI start (~2 s) per scenario.
const SYSTEM_ID = 'robustness-client';
const SYSTEM_SECRET = 'robustness-secret-0123456789abcdef';
export const SYSTEM_ENV = { DATAHUB_SYSTEM_CLIENT_ID: SYSTEM_ID, DATAHUB_SYSTEM_CLIENT_SECRET: SYSTEM_SECRET };
export const SYSTEM_AUTH = `Basic ${SYSTEM_ID}:${SYSTEM_SECRET}`;

export const freshDataDir = (label = 'robust') => mkdtempSync(join(tmpdir(), `mds-${label}-`));

/** A spawned server with the system client configured. */
export const spawnLive = (env: Record<string, string>): Promise<ChildServer> => spawnServer({ ...SYSTEM_ENV, ...env });

export interface Reply {
  status: number;
  body: any;
}

/** JSON over HTTP with one Authorization header; a refused or reset connection rejects, as fetch does. */
export function apiClient(url: string, authorization: string | null = SYSTEM_AUTH) {
  const post = async (path: string, body: unknown, init: { signal?: AbortSignal } = {}): Promise<Reply> => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(authorization && { authorization }) },
      body: JSON.stringify(body),
      signal: init.signal,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  return {
    url,
    post,
    graphql: (query: string, variables: Record<string, unknown> = {}) => post('/api/graphql', { query, variables }),
    operation: (action: string, params: unknown) => post(`/gms/operations?action=${action}`, params),
    ingest: (proposals: unknown[]) =>
      proposals.length === 1 ? post('/aspects?action=ingestProposal', { proposal: proposals[0] }) : post('/aspects?action=ingestProposalBatch', { proposals }),
  };
}
export type ApiClient = ReturnType<typeof apiClient>;

/** A bearer token for `actorUrn` holding `roleUrn` (null: no role), minted through the API by the system client. */
export async function mintToken(api: ApiClient, actorUrn: string, roleUrn: string | null): Promise<string> {
  const assigned = await api.graphql('mutation($r: String, $a: [String!]!) { batchAssignRole(input: { roleUrn: $r, actors: $a }) }', { r: roleUrn, a: [actorUrn] });
  if (assigned.body?.data?.batchAssignRole !== true) throw new Error(`batchAssignRole failed: ${JSON.stringify(assigned.body)}`);
  const created = await api.graphql('mutation($i: CreateAccessTokenInput!) { createAccessToken(input: $i) { accessToken } }', {
    i: { type: 'PERSONAL', actorUrn, duration: 'ONE_DAY', name: 'robustness' },
  });
  const token = created.body?.data?.createAccessToken?.accessToken;
  if (typeof token !== 'string') throw new Error(`createAccessToken failed: ${JSON.stringify(created.body)}`);
  return token;
}

/** Sends `signal` and waits for the exit code (null when the signal killed it). */
export async function stop(server: ChildServer, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (server.process.exitCode === null && server.process.signalCode === null) server.process.kill(signal);
  return server.exited;
}

/** The resident set of a process in bytes, from /proc (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const kb = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
