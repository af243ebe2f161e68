import type { SqlDatabase } from '@mds/db';
import { postgresTestDatabases, sqliteTestDatabases } from '@mds/db/testing';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqlSearchIndex, type SearchIndex } from '@mds/search';
import { canonicalJson } from '../../src/model/canonical-json';
import type { AspectStore } from '../../src/store/port';
import { createSqlAspectStore } from '../../src/store/sql-store';
import { anything, keyed, type TestWrite } from './writes';

// Random sequences of upserts, identical re-writes, patches and hard deletes on a few urns, alone or several in one
// write (which decides every item in memory and writes them together), run against the store and against a tiny model
// of entities-api §3.2: after every step, the version history, the latest value and what search finds agree.
const URNS = ['a', 'b', 'c'].map((name) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.${name},PROD)`);
const TAGS = ['pii', 'gold', 'raw'];
const tagsOf = (names: readonly string[]) => ({ tags: names.map((name) => ({ tag: `urn:li:tag:${name}` })) });

type Op =
  | { kind: 'upsert'; urn: string; aspect: 'globalTags' | 'status'; value: Record<string, unknown> }
  | { kind: 'patch'; urn: string; tag: string; add: boolean }
  | { kind: 'delete'; urn: string };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('upsert' as const),
    urn: fc.constantFrom(...URNS),
    aspect: fc.constant('globalTags' as const),
    value: fc.subarray(TAGS).map(tagsOf),
  }),
  fc.record({
    kind: fc.constant('upsert' as const),
    urn: fc.constantFrom(...URNS),
    aspect: fc.constant('status' as const),
    value: fc.boolean().map((removed) => ({ removed })),
  }),
  fc.record({ kind: fc.constant('patch' as const), urn: fc.constantFrom(...URNS), tag: fc.constantFrom(...TAGS), add: fc.boolean() }),
  fc.record({ kind: fc.constant('delete' as const), urn: fc.constantFrom(...URNS) }),
);

/** The model: per urn, per aspect, the latest value then the archived ones, oldest first. */
type Model = Map<string, Map<string, { latest: unknown; history: unknown[] }>>;

function applyToModel(model: Model, step: Op): void {
  if (step.kind === 'delete') return void model.delete(step.urn);
  const aspects = model.get(step.urn) ?? new Map<string, { latest: unknown; history: unknown[] }>();
  model.set(step.urn, aspects);
  const aspect = step.kind === 'patch' ? 'globalTags' : step.aspect;
  const stored = aspects.get(aspect);
  let value: unknown;
  if (step.kind === 'patch') {
    const names = ((stored?.latest as { tags: { tag: string }[] } | undefined)?.tags ?? []).map((t) => t.tag.slice('urn:li:tag:'.length));
    const kept = names.filter((name) => name !== step.tag);
    value = tagsOf(step.add ? (names.includes(step.tag) ? names : [...names, step.tag]) : kept);
  } else value = step.value;
  if (!stored) aspects.set(aspect, { latest: value, history: [] });
  else if (canonicalJson(stored.latest) !== canonicalJson(value))
    aspects.set(aspect, { latest: value, history: [...stored.history, stored.latest] });
}

async function freshStore(db: SqlDatabase): Promise<{ store: AspectStore; search: SearchIndex }> {
  const search = createSqlSearchIndex(db);
  await search.migrate();
  const store = createSqlAspectStore(db, { search });
  await store.migrate();
  return { store, search };
}

function toWrite(step: Exclude<Op, { kind: 'delete' }>): TestWrite {
  if (step.kind === 'upsert') return { urn: step.urn, aspect: step.aspect, changeType: 'UPSERT', value: step.value };
  const tag = `urn:li:tag:${step.tag}`;
  const patch = [step.add ? { op: 'add', path: `/tags/${tag}`, value: { tag } } : { op: 'remove', path: `/tags/${tag}` }];
  return { urn: step.urn, aspect: 'globalTags', changeType: 'PATCH', value: patch };
}

/** A delete alone, or a write of several items in one transaction (each seeing those before it). */
async function applyToStore(store: AspectStore, steps: readonly Op[], time: number): Promise<void> {
  const audit = { actor: 'urn:li:corpuser:model', time };
  const [first] = steps;
  if (first?.kind === 'delete') return void (await store.deleteEntity(first.urn));
  await store.write(
    steps.map((step) => keyed(toWrite(step as Exclude<Op, { kind: 'delete' }>))),
    audit,
    anything,
  );
}

async function expectAgreement(store: AspectStore, search: SearchIndex, model: Model): Promise<void> {
  // Search: the live entities carrying each tag, as the model's latest values say.
  for (const name of TAGS) {
    const tag = `urn:li:tag:${name}`;
    const expected = URNS.filter((urn) => {
      const aspects = model.get(urn);
      const tagged = (aspects?.get('globalTags')?.latest as { tags: { tag: string }[] } | undefined)?.tags.some((t) => t.tag === tag);
      return tagged && (aspects?.get('status')?.latest as { removed?: boolean } | undefined)?.removed !== true;
    });
    const found = await search.search({
      input: '*',
      start: 0,
      count: 10,
      facets: [],
      filters: [[{ field: 'tags', values: [tag] }]],
      sort: { field: 'urn', order: 'ASCENDING' },
    });
    expect(
      found.hits.map((h) => h.urn),
      tag,
    ).toEqual([...expected].sort());
  }
  for (const urn of URNS) {
    const modelled = model.get(urn);
    expect(await store.exists(urn), urn).toBe(modelled !== undefined);
    for (const aspect of ['globalTags', 'status']) {
      const expected = modelled?.get(aspect);
      const versions = await store.versions(urn, aspect);
      if (!expected) {
        expect(versions, `${urn} ${aspect}`).toEqual([]);
        continue;
      }
      // v0 is the latest; 1..n the archived values, oldest first; systemMetadata.version counts the values.
      expect(versions.map((v) => v.version)).toEqual(Array.from({ length: expected.history.length + 1 }, (_, i) => i));
      expect(versions.map((v) => v.value)).toEqual([expected.latest, ...expected.history]);
      expect(versions[0]!.systemMetadata?.version).toBe(String(expected.history.length + 1));
    }
  }
}

/** A step: one operation, or a write of several items (upserts and patches, often of one urn and aspect). */
const step: fc.Arbitrary<Op[]> = fc.oneof(
  op.map((one) => [one]),
  fc.array(
    op.filter((one) => one.kind !== 'delete'),
    { minLength: 2, maxLength: 6 },
  ),
);

describe.each([
  ['SQLite', sqliteTestDatabases(), 60],
  ['PostgreSQL', postgresTestDatabases(), 20],
] as const)('the aspect store against a model of entities-api §3.2 (%s)', (_, databases, numRuns) => {
  afterAll(databases.dispose);
  it('agrees on history, latest values and search results after every step of random sequences', { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 20 }), async (steps) => {
        const { store, search } = await freshStore(await databases.open());
        const model: Model = new Map();
        try {
          for (const [i, batch] of steps.entries()) {
            await applyToStore(store, batch, 1_000 + i);
            for (const one of batch) applyToModel(model, one);
            await expectAgreement(store, search, model);
          }
        } finally {
          await databases.closeOpened();
        }
      }),
      { numRuns },
    );
  });
});
