import { testDatabases } from '@mds/db/testing';
import { randomBytes } from 'node:crypto';
import { apiClient, type ApiClient } from './api-client';
import { freshDataDir, type ChildServer } from './child';
import { spawnLive, SYSTEM_AUTH } from './live';
import { tcpProxy } from './tcp-proxy';

/** The token secrets every replica of one database shares (a token minted on one is checked by the others). */
export const sharedSecrets = () => ({
  DATAHUB_TOKEN_SERVICE_SIGNING_KEY: randomBytes(32).toString('hex'),
  DATAHUB_TOKEN_SERVICE_SALT: randomBytes(16).toString('hex'),
});

/** A replica: `mds serve` on `DATABASE_URL=url`, with a DATA_DIR of its own and the system client configured. */
export const spawnReplica = (url: string, secrets: Record<string, string>, env: Record<string, string> = {}): Promise<ChildServer> =>
  spawnLive({ DATABASE_URL: url, DATA_DIR: freshDataDir('replica'), ...secrets, ...env });

/** The API of `replica` as the system client, or as the holder of `token`. */
export const clientOf = (replica: ChildServer, token?: string): ApiClient =>
  apiClient(replica.url, token ? `Bearer ${token}` : SYSTEM_AUTH);

const ASSIGN = 'mutation($r: String, $a: [String!]!) { batchAssignRole(input: { roleUrn: $r, actors: $a }) }';
const MINT = 'mutation($i: CreateAccessTokenInput!) { createAccessToken(input: $i) { accessToken metadata { id } } }';

/** Gives `actorUrn` the role `roleUrn` (null: none) through `api`. */
export async function assignRole(api: ApiClient, actorUrn: string, roleUrn: string | null): Promise<void> {
  const { body } = await api.graphql(ASSIGN, { r: roleUrn, a: [actorUrn] });
  if (body?.data?.batchAssignRole !== true) throw new Error(`batchAssignRole failed: ${JSON.stringify(body)}`);
}

/** A token for `actorUrn`, minted through `api`: the token and its id (for revoking it). */
export async function mint(api: ApiClient, actorUrn: string): Promise<{ token: string; id: string }> {
  const { body } = await api.graphql(MINT, { i: { type: 'PERSONAL', actorUrn, duration: 'ONE_DAY', name: 'replicas' } });
  const minted = body?.data?.createAccessToken;
  if (!minted) throw new Error(`createAccessToken failed: ${JSON.stringify(body)}`);
  return { token: minted.accessToken, id: minted.metadata.id };
}

export const CREATE_TAG = 'mutation($i: CreateTagInput!) { createTag(input: $i) }';
export const TAG = 'query($u: String!) { tag(urn: $u) { urn properties { name description } } }';
export const ME = '{ me { corpUser { urn } platformPrivileges { createTags } } }';

/** A dataset's datasetProperties as an MCP for `/aspects?action=ingestProposal`. */
export const datasetProperties = (name: string, description: string) => ({
  entityType: 'dataset',
  entityUrn: datasetUrn(name),
  changeType: 'UPSERT',
  aspectName: 'datasetProperties',
  aspect: { contentType: 'application/json', value: JSON.stringify({ description, customProperties: {} }) },
});
export const datasetUrn = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${name},PROD)`;
/** Rest.li's read of a dataset's datasetProperties (latest version). */
export const aspectPath = (name: string) => `/aspects/${encodeURIComponent(datasetUrn(name))}?aspect=datasetProperties&version=0`;

/**
 * A database of the test file's own and a TCP relay to it, which a test cuts and restores to take the database away
 * from the replica that goes through it. `dispose` closes the relay and drops the database.
 */
export async function databaseBehindRelay() {
  const databases = testDatabases();
  const url = await databases.create();
  const server = new URL(url);
  const proxy = await tcpProxy({ host: server.hostname, port: Number(server.port) });
  return {
    url,
    proxy,
    /** The database's URL through the relay. */
    relayed: proxy.relayed(url),
    dispose: async () => {
      await proxy.close();
      await databases.dropAll();
    },
  };
}
