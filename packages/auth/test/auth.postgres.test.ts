import type { SqlDatabase } from '@mds/db';
import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAuth, ROLE_URNS } from '../src/index';
import { describeAuthContract } from './auth-contract';
import { bearer, SECRETS, testClock } from './helpers';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeAuthContract('PostgreSQL', databases);

/** `db`, with every statement run outside a transaction written down. */
function counting(db: SqlDatabase): { db: SqlDatabase; statements: string[] } {
  const statements: string[] = [];
  const seen = (sql: string) => void statements.push(sql.replace(/\s+/g, ' '));
  return {
    statements,
    db: {
      ...db,
      all: <Row>(sql: string, params?: readonly unknown[]) => (seen(sql), db.all<Row>(sql, params)),
      get: <Row>(sql: string, params?: readonly unknown[]) => (seen(sql), db.get<Row>(sql, params)),
      run: (sql: string, params?: readonly unknown[]) => (seen(sql), db.run(sql, params)),
    },
  };
}

describe('auth: PostgreSQL requests', () => {
  // Nothing about a token may be cached across requests on PostgreSQL, so this statement is paid by every request:
  // one round trip, never one for the token and another for its user.
  it('reads a request’s credential in one statement, token and user with its role together, on every request', async () => {
    const first = await databases.open();
    const { db, statements } = counting(first);
    const clock = testClock();
    const auth = await createAuth({ db, secrets: SECRETS, now: clock.now });
    await auth.service.roles.assign(ROLE_URNS.Reader, ['urn:li:corpuser:bob']);
    const { accessToken, id } = await auth.service.tokens.create({ actorUrn: 'urn:li:corpuser:bob', duration: 'ONE_DAY', name: 'counted' });

    statements.length = 0;
    for (let i = 0; i < 3; i++) expect((await auth.service.authenticate(bearer(accessToken)))?.urn).toBe('urn:li:corpuser:bob');
    expect(statements).toHaveLength(3);
    expect(new Set(statements).size).toBe(1);
    expect(statements[0]).toMatch(/FROM access_tokens .*JOIN users/);

    // Revoked through another handle (another replica): refused on the next request, which still costs one statement.
    const other = await createAuth({ db: await databases.openAgain(first), secrets: SECRETS, now: clock.now });
    await other.service.tokens.revoke(id);
    statements.length = 0;
    expect(await auth.service.authenticate(bearer(accessToken))).toBeNull();
    expect(statements).toHaveLength(1);
  });
});
