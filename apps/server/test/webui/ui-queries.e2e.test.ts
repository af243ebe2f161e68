import type { GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestSampleData } from '../support/graphql-docs';
import { startMds, type Mds } from '../support/mds';
import { introspectSchema } from './served-schema';
import { queryRunRatchet, ratchetProblems, readList } from './ratchet';
import { readUiDocuments, validateOperation } from './ui-documents';
import { bootstrapPlaceholders, fillPlaceholders, placeholdersIn, readUiVariables, runUiOperation } from './ui-queries';

// The queries of DataHub's web UI run with the variables its pages send (fixtures/datahub-web-react/variables.json)
// against a real mds holding DataHub's bootstrap sample (issue 31). Every query that validates against mds's schema
// must answer without errors, but those listed in remaining-query-runs.txt (a ratchet: a query that newly validates
// must also run, and a listed one that runs must be unlisted); the ones that do not validate yet are
// ui-operations.test.ts's ratchet.
const { operations } = readUiDocuments();
const queries = operations.filter((op) => op.kind === 'query');
const fixture = readUiVariables();

describe('the variables the UI sends (variables.json)', () => {
  const mutations = operations.filter((op) => op.kind === 'mutation');
  const entries = [
    ...queries.map((op) => [op, fixture.queries[op.name]] as const),
    ...mutations.map((op) => [op, fixture.mutations[op.name]] as const),
  ];

  it('lists every query and mutation of the UI, each with at least one variables object', () => {
    expect(Object.keys(fixture.queries).sort()).toEqual(queries.map((op) => op.name).sort());
    // createPost and updatePost are written twice (mutations.graphql, post.graphql), identically: one entry each.
    expect(Object.keys(fixture.mutations).sort()).toEqual([...new Set(mutations.map((op) => op.name))].sort());
    for (const [, calls] of entries) expect(calls!.length).toBeGreaterThan(0);
  });

  it('sends only the variables each operation declares, and every one it requires', () => {
    const problems: string[] = [];
    for (const [op, calls] of entries) {
      const declared = new Map((op.node.variableDefinitions ?? []).map((d) => [d.variable.name.value, d]));
      const required = [...declared.values()]
        .filter((d) => d.type.kind === 'NonNullType' && !d.defaultValue)
        .map((d) => d.variable.name.value);
      for (const call of calls!) {
        const sent = Object.keys(call.variables);
        for (const name of sent) if (!declared.has(name)) problems.push(`${op.name} (${call.from}): $${name} is not declared`);
        for (const name of required) if (!sent.includes(name)) problems.push(`${op.name} (${call.from}): required $${name} missing`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("names only placeholders it describes, and each has a value over DataHub's bootstrap sample", () => {
    const { values } = bootstrapPlaceholders();
    const used = new Set(entries.flatMap(([, calls]) => calls!.flatMap((call) => placeholdersIn(call.variables))));
    expect([...used].sort()).toEqual(Object.keys(fixture.placeholders).sort());
    expect(Object.keys(values).sort()).toEqual(Object.keys(fixture.placeholders).sort());
  });

  it('fills a placeholder as a whole value (numbers stay numbers) or inside a string', () => {
    const values = { $ME_URN: 'urn:li:corpuser:datahub', $NOW_MS: 1_700_000_000_000 };
    expect(fillPlaceholders({ a: ['$ME_URN-domains-intro'], b: { t: '$NOW_MS' }, c: null, d: 3 }, values)).toEqual({
      a: ['urn:li:corpuser:datahub-domains-intro'],
      b: { t: 1_700_000_000_000 },
      c: null,
      d: 3,
    });
    expect(() => fillPlaceholders({ urn: '$DOMAIN_URN' }, values)).toThrow('no value for the placeholder $DOMAIN_URN');
  });
});

describe("the UI's queries on mds over DataHub's bootstrap sample", () => {
  let mds: Mds;
  let schema: GraphQLSchema;
  beforeAll(async () => {
    mds = await startMds();
    await ingestSampleData(mds);
    schema = await introspectSchema(mds.url, mds.rootToken);
  });
  afterAll(() => mds?.close());

  it('answers every query that validates, with each variables object the UI sends, without errors (but those listed)', async () => {
    const { values, absent } = bootstrapPlaceholders();
    const runnable = queries.filter((op) => validateOperation(schema, op).length === 0);
    // Validating every query holds the event loop for seconds on a busy machine, long enough for the server to close
    // the idle keep-alive connection; one turn of the loop lets the client see that close before it sends again.
    await new Promise((resolve) => setImmediate(resolve));
    const failures = new Map<string, string[]>();
    let calls = 0;
    for (const op of runnable) {
      for (const call of fixture.queries[op.name]!) {
        calls++;
        const { status, body } = await runUiOperation((b) => mds.post('/api/graphql', b), op, call, values);
        if (status === 200 && !body?.errors?.length) continue;
        const missing = placeholdersIn(call.variables).filter((p) => absent.includes(p));
        const about = `${call.from ?? 'no page'}${missing.length ? `; not in the sample: ${missing.join(', ')}` : ''}`;
        failures.set(op.name, [...(failures.get(op.name) ?? []), `${about}: ${status} ${JSON.stringify(body?.errors ?? body)}`]);
      }
    }
    const failed = [...failures.values()].reduce((n, list) => n + list.length, 0);
    console.log(
      `queries that validate: ${runnable.length} of ${queries.length}; ${calls - failed} of their ${calls} UI calls answered without errors`,
    );
    const ratchet = { ...queryRunRatchet, current: [...failures.keys()].sort() };
    const problems = ratchetProblems(ratchet, readList(ratchet.file), (name) => failures.get(name)!.join('\n      '));
    expect(problems, problems).toBe('');
  });
});
