import { sqliteTestDatabases } from '@mds/db/testing';
import { isApiError } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { writeCreate } from '../../src/graphql/mutation-support';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const answerOf = (outcome: PromiseSettledResult<void>) =>
  outcome.status === 'fulfilled'
    ? 'created'
    : isApiError(outcome.reason)
      ? [outcome.reason.status, outcome.reason.message]
      : outcome.reason;

describe('writeCreate (every create mutation: domains, glossary, data products, structured properties, tests)', () => {
  it('lets exactly one of concurrent creates of one urn write; the others answer the 400 "exists" text', async () => {
    const { service } = await goldenGraphql(databases, []);
    const grant = await service.authorize(SYSTEM_ACTOR, [[]]);
    const create = (name: string) =>
      writeCreate(
        service,
        grant,
        [{ urn: 'urn:li:domain:finance', aspect: 'domainProperties', changeType: 'CREATE_ENTITY', value: { name } }],
        { time: 1 },
        'This Domain already exists!',
      );
    const outcomes = (await Promise.allSettled(['a', 'b', 'c', 'd', 'e'].map(create))).map(answerOf);
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'created')).toEqual(Array(4).fill([400, 'This Domain already exists!']));
  });

  it('answers a value the model refuses with its own 422, not as an existing entity', async () => {
    const { service } = await goldenGraphql(databases, []);
    const grant = await service.authorize(SYSTEM_ACTOR, [[]]);
    const refused = writeCreate(
      service,
      grant,
      [{ urn: 'urn:li:test:t1', aspect: 'testInfo', changeType: 'CREATE_ENTITY', value: { name: 7 } }],
      { time: 1 },
      'This Test already exists!',
    );
    const [outcome] = (await Promise.allSettled([refused])).map(answerOf);
    expect(outcome).toEqual([422, expect.stringContaining('Failed to validate record with class')]);
  });
});
