import { apiClient, type ApiClient } from './api-client';
import { spawnServer, type ChildServer } from './child';

// Talking to a spawned `mds serve` without the CLI: the system client (Basic id:secret) has every privilege and
// needs no token minted beforehand, which saves a CLI start (~2 s) per scenario.
const SYSTEM_ID = 'robustness-client';
const SYSTEM_SECRET = 'robustness-secret-0123456789abcdef';
const SYSTEM_ENV = { DATAHUB_SYSTEM_CLIENT_ID: SYSTEM_ID, DATAHUB_SYSTEM_CLIENT_SECRET: SYSTEM_SECRET };
export const SYSTEM_AUTH = `Basic ${SYSTEM_ID}:${SYSTEM_SECRET}`;

/** A spawned server with the system client configured. */
export const spawnLive = (env: Record<string, string>): Promise<ChildServer> => spawnServer({ ...SYSTEM_ENV, ...env });

/** The API of `server` as the system client calls it. */
export const systemClient = (server: ChildServer): ApiClient => apiClient(server.url, SYSTEM_AUTH);

/** A bearer token for `actorUrn` holding `roleUrn` (null: no role), minted through the API by the system client. */
export async function mintToken(api: ApiClient, actorUrn: string, roleUrn: string | null): Promise<string> {
  const assigned = await api.graphql('mutation($r: String, $a: [String!]!) { batchAssignRole(input: { roleUrn: $r, actors: $a }) }', {
    r: roleUrn,
    a: [actorUrn],
  });
  if (assigned.body?.data?.batchAssignRole !== true) throw new Error(`batchAssignRole failed: ${JSON.stringify(assigned.body)}`);
  const created = await api.graphql('mutation($i: CreateAccessTokenInput!) { createAccessToken(input: $i) { accessToken } }', {
    i: { type: 'PERSONAL', actorUrn, duration: 'ONE_DAY', name: 'robustness' },
  });
  const token = created.body?.data?.createAccessToken?.accessToken;
  if (typeof token !== 'string') throw new Error(`createAccessToken failed: ${JSON.stringify(created.body)}`);
  return token;
}

/** Which of the tag urns exist, in the order given; asked in groups of 25 aliases, under the limit of 30. */
export async function existingTags(api: ApiClient, urns: string[]): Promise<string[]> {
  const existing: string[] = [];
  for (let i = 0; i < urns.length; i += 25) {
    const group = urns.slice(i, i + 25);
    const { status, body } = await api.graphql(`{ ${group.map((urn, k) => `t${k}: tag(urn: "${urn}") { urn }`).join(' ')} }`);
    if (status !== 200 || !body.data) throw new Error(`tag lookup failed: ${status} ${JSON.stringify(body)}`);
    group.forEach((_, k) => {
      const found: string | undefined = body.data[`t${k}`]?.urn;
      if (found) existing.push(found);
    });
  }
  return existing;
}

/** The resident set of a process in bytes, from /proc (Linux). */
export async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const kb = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return Number(kb) * 1024;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
