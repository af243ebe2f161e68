import { ROOT_ACTOR_URN } from '@mds/auth';
import { buildClientSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compose } from '../../src/compose';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startServer } from '../../src/server';

/**
 * The GraphQL schema mds serves, as a client sees it: the real composition on a fresh SQLite data directory, asked
 * over HTTP with GraphQL's introspection query. Whatever assembles the schema inside the server, this is what the web
 * UI is validated against. Needs no test runner, so scripts/webui-ratchets.ts uses it too.
 */
export async function servedSchema(): Promise<GraphQLSchema> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mds-webui-'));
  try {
    const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'test' });
    const domains = await compose(config);
    const running = await startServer(config, createLogger('silent'), domains);
    try {
      const { accessToken } = await domains.auth.service.tokens.create({
        actorUrn: ROOT_ACTOR_URN,
        duration: 'ONE_DAY',
        name: 'webui schema',
      });
      return await introspectSchema(running.url, accessToken);
    } finally {
      await running.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The schema a running mds serves, asked over HTTP with GraphQL's introspection query. */
export async function introspectSchema(url: string, accessToken: string): Promise<GraphQLSchema> {
  const res = await fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({ query: getIntrospectionQuery({ inputValueDeprecation: true }) }),
  });
  const body = (await res.json()) as { data?: IntrospectionQuery; errors?: unknown };
  if (res.status !== 200 || !body.data) throw new Error(`introspection failed (${res.status}): ${JSON.stringify(body.errors ?? body)}`);
  return buildClientSchema(body.data);
}
