import { rmSync } from 'node:fs';
import { ROOT_ACTOR_URN } from '@mds/auth';
import { ALL_USERS_POLICIES } from '@mds/entities';
import { compose } from '../../src/compose';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startServer } from '../../src/server';
import { apiClient } from './api-client';
import { freshDataDir } from './child';

export type Mds = Awaited<ReturnType<typeof startMds>>;

/** The real composition on a fresh data directory, listening on a random loopback port. */
export async function startMds(env: Record<string, string> = {}) {
  const dataDir = freshDataDir('e2e');
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'test', ...env });
  const domains = await compose(config);
  const running = await startServer(config, createLogger('silent'), domains);

  /** A token for a user with the given role (created if new). */
  const tokenFor = async (actorUrn: string, roleUrn: string | null) => {
    if (actorUrn !== ROOT_ACTOR_URN) await domains.auth.service.roles.assign(roleUrn, [actorUrn]);
    return (await domains.auth.service.tokens.create({ actorUrn, duration: 'ONE_DAY', name: 'e2e' })).accessToken;
  };
  const rootToken = await tokenFor(ROOT_ACTOR_URN, null);

  /** The API as the holder of `token` (null: no credentials) calls it. */
  const clientFor = (token: string | null) => apiClient(running.url, token && `Bearer ${token}`);
  /** POSTs JSON with a bearer token and returns status and parsed body. */
  const post = (path: string, body: unknown, token: string | null = rootToken) => clientFor(token).post(path, body);
  const graphql = (query: string, variables: Record<string, unknown> = {}, token: string | null = rootToken) =>
    clientFor(token).graphql(query, variables);

  /**
   * Closes the server, then removes its data directory. freshDataDir removes it after the file anyway; removing it here
   * too frees it early for the instances tests start and close within themselves (limits, observability).
   */
  const close = async () => {
    await running.close();
    rmSync(dataDir, { recursive: true, force: true });
  };

  /**
   * Deactivates DataHub's three default policies for all users (stored at every start) as an operator does on the
   * Policies page, so that a user without a role holds nothing: for tests of what a caller lacking a privilege is refused.
   */
  const withoutAllUsersPolicies = async () => {
    for (const { urn, info } of ALL_USERS_POLICIES) {
      const { displayName, description, type, privileges } = info as {
        displayName: string;
        description: string;
        type: string;
        privileges: string[];
      };
      const input = {
        type,
        name: displayName,
        description,
        state: 'INACTIVE',
        privileges,
        actors: { allUsers: true, allGroups: false, resourceOwners: false, users: [], groups: [] },
      };
      const { body } = await graphql('mutation m($urn: String!, $input: PolicyUpdateInput!) { updatePolicy(urn: $urn, input: $input) }', {
        urn,
        input,
      });
      if (body.errors) throw new Error(`deactivating ${urn}: ${JSON.stringify(body.errors)}`);
    }
  };

  return { url: running.url, dataDir, domains, rootToken, tokenFor, clientFor, post, graphql, close, withoutAllUsersPolicies };
}
