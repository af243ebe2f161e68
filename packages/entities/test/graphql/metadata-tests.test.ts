import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Actor } from '@mds/schema';
import { SYSTEM_ACTOR } from '../../src/index';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const FRESHNESS = 'urn:li:test:freshness';
const OWNED = 'urn:li:test:has-owner';
const UNNAMED = 'urn:li:test:unnamed';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const definition = { type: 'JSON', json: '{"on":{"types":["dataset"]},"rules":[]}' };

// The UI's test.graphql, as its settings page sends it (fixtures/datahub-web-react).
const UI = readFileSync(new URL('../../../../apps/server/test/fixtures/datahub-web-react/graphql/test.graphql', import.meta.url), 'utf8')
  .split(/\n(?=mutation )/)
  .filter((part) => !part.startsWith('mutation'))
  .join('\n');
const getTest = { operationName: 'getTest' };
const listTests = { operationName: 'listTests' };

async function setup() {
  const { run, entities } = await goldenGraphql(databases, []);
  const values: [string, string, unknown][] = [
    [FRESHNESS, 'testInfo', { name: 'Fresh tables', category: 'Quality', description: 'updated daily', definition }],
    [OWNED, 'testInfo', { name: 'Has an owner', category: 'Governance', definition }],
    [UNNAMED, 'testKey', { id: 'unnamed' }],
    [DATASET, 'testResults', { passing: [{ test: FRESHNESS, type: 'SUCCESS' }], failing: [{ test: OWNED, type: 'FAILURE' }] }],
  ];
  const grant = await entities.service.authorizeEdit(SYSTEM_ACTOR, [FRESHNESS, OWNED, UNNAMED, DATASET], []);
  await entities.service.write(
    grant,
    values.map(([urn, aspect, value]) => ({ urn, aspect, changeType: 'UPSERT' as const, value: value as never })),
  );
  return run;
}

describe("metadata tests, as DataHub's TestMapper and ListTestsResolver give them", () => {
  it('getTest: the testInfo aspect; a test without testInfo, or absent, is null', async () => {
    const run = await setup();
    const found = await run(UI, { urn: FRESHNESS }, getTest);
    expect(found).toEqual({
      data: {
        test: {
          urn: FRESHNESS,
          name: 'Fresh tables',
          category: 'Quality',
          description: 'updated daily',
          definition: { json: definition.json },
        },
      },
    });
    expect(await run(UI, { urn: UNNAMED }, getTest)).toEqual({ data: { test: null } });
    expect(
      await run(`{ a: test(urn: "${UNNAMED}") { urn } b: test(urn: "urn:li:test:none") { urn } c: test(urn: "${DATASET}") { urn } }`),
    ).toEqual({
      data: { a: null, b: null, c: null },
    });
  });

  it('listTests: every stored test, paged, with the UI’s document; refused without VIEW_TESTS', async () => {
    const run = await setup();
    const page = await run(UI, { input: { start: 0, count: 20 } }, listTests);
    expect(page.errors).toBeUndefined();
    const listed = page.data!.listTests;
    expect({ ...listed, tests: listed.tests.map((t: { urn: string }) => t.urn).sort() }).toEqual({
      start: 0,
      count: 3,
      total: 3,
      tests: [OWNED, FRESHNESS, UNNAMED].sort(),
    });
    const second = await run(`{ listTests(input: { start: 1, count: 1, query: "" }) { start count total tests { urn } } }`);
    expect(second.data!.listTests).toMatchObject({ start: 1, count: 1, total: 3 });
    const reader = { actor: { urn: 'urn:li:corpuser:reader', privileges: new Set([Privilege.VIEW_ENTITY_PAGE]) }, requestId: 'reader' };
    const refused = await run(`{ listTests(input: {}) { total } }`, undefined, { context: reader });
    expect(refused.errors?.map((e) => e.extensions?.code)).toEqual([403]);
    const bad = await run(`{ listTests(input: { count: -1 }) { total } }`);
    expect(bad.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([["'count' must be 0 to 1000", 400]]);
  });

  it('Dataset.testResults: the tests the dataset passes and fails', async () => {
    const run = await setup();
    const { data, errors } = await run(
      `{ dataset(urn: "${DATASET}") { testResults { passing { type test { urn name } } failing { type test { urn name category } } } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data!.dataset.testResults).toEqual({
      passing: [{ type: 'SUCCESS', test: { urn: FRESHNESS, name: 'Fresh tables' } }],
      failing: [{ type: 'FAILURE', test: { urn: OWNED, name: 'Has an owner', category: 'Governance' } }],
    });
  });
});

describe("test edits, as DataHub's CreateTestResolver, UpdateTestResolver and DeleteTestResolver make them", () => {
  // The UI's whole test.graphql (its createTest and deleteTest), with the variables of variables.json.
  const DOCUMENT = readFileSync(
    new URL('../../../../apps/server/test/fixtures/datahub-web-react/graphql/test.graphql', import.meta.url),
    'utf8',
  );
  const manager: Actor = { urn: 'urn:li:corpuser:manager', privileges: new Set([Privilege.MANAGE_TESTS]) };
  const viewer: Actor = { urn: 'urn:li:corpuser:viewer', privileges: new Set([Privilege.VIEW_TESTS]) };
  const as = (actor: Actor, operationName: string) => ({
    context: { actor, requestId: `${operationName}-${Math.random()}` },
    operationName,
  });
  const UPDATE = 'mutation($urn: String!, $input: UpdateTestInput!) { updateTest(urn: $urn, input: $input) }';

  it('createTest writes testInfo with a JSON definition and answers its urn; updateTest replaces it; deleteTest removes it', async () => {
    const { run, service } = await goldenGraphql(databases, []);
    const infoOf = async (urn: string) =>
      (await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], ['testInfo'])).get(urn)?.get('testInfo')?.value;
    const input = { name: 'Has owners', category: 'Governance', definition: { json: '{}' } };
    const created = await run(DOCUMENT, { input }, as(manager, 'createTest'));
    expect(created.errors).toBeUndefined();
    const urn = created.data!.createTest as string;
    expect(urn).toMatch(/^urn:li:test:[0-9a-f-]{36}$/);
    expect(await infoOf(urn)).toEqual({ name: 'Has owners', category: 'Governance', definition: { type: 'JSON', json: '{}' } });
    const read = await run(DOCUMENT, { urn }, as(manager, 'getTest'));
    expect(read.data!.test).toEqual({ urn, name: 'Has owners', category: 'Governance', description: null, definition: { json: '{}' } });

    const again = await run(DOCUMENT, { input: { ...input, id: urn.split(':').pop() } }, as(manager, 'createTest'));
    expect(again.errors?.map((e) => [e.message, e.extensions?.code])).toEqual([['This Test already exists!', 400]]);

    const updated = await run(
      UPDATE,
      { urn, input: { name: 'Owned', category: 'Governance', description: 'two owners', definition: {} } },
      as(manager, undefined as never),
    );
    expect(updated.data).toEqual({ updateTest: urn });
    expect(await infoOf(urn)).toEqual({ name: 'Owned', category: 'Governance', description: 'two owners', definition: { type: 'JSON' } });

    expect((await run(DOCUMENT, { urn }, as(manager, 'deleteTest'))).data).toEqual({ deleteTest: true });
    expect(await infoOf(urn)).toBeUndefined();
    expect((await run(DOCUMENT, { urn }, as(manager, 'getTest'))).data).toEqual({ test: null });
  });

  it('refuses an actor without MANAGE_TESTS, with DataHub’s text; nothing is written', async () => {
    const { run } = await goldenGraphql(databases, []);
    const forbidden = [['Unauthorized to perform this action. Please contact your DataHub administrator.', 403]];
    const input = { id: 'mine', name: 'Has owners', category: 'Governance', definition: { json: '{}' } };
    expect((await run(DOCUMENT, { input }, as(viewer, 'createTest'))).errors?.map((e) => [e.message, e.extensions?.code])).toEqual(
      forbidden,
    );
    expect(
      (await run(DOCUMENT, { urn: 'urn:li:test:mine' }, as(viewer, 'deleteTest'))).errors?.map((e) => [e.message, e.extensions?.code]),
    ).toEqual(forbidden);
    const { id: _id, ...update } = input;
    expect(
      (await run(UPDATE, { urn: 'urn:li:test:mine', input: update }, as(viewer, undefined as never))).errors?.[0]?.extensions?.code,
    ).toBe(403);
    expect((await run(DOCUMENT, { urn: 'urn:li:test:mine' }, as(manager, 'getTest'))).data).toEqual({ test: null });
  });
});
