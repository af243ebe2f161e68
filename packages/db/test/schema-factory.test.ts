import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copiedTable, defineTable, type AnyTableDescription, type ColumnSpec, type SqlDialect, type TableSpec } from '../src/index';
import { databasesOfBothDialects, migrationsFolderProblems, pendingMigration, schemaDescribed, schemaInDatabase } from '../src/testing';
import { migrationsFolder, tempDir } from './helpers';

// The schema factory: one description, drizzle's table for each dialect, and the check each package runs on its
// migrations (schemaInDatabase against schemaDescribed), shown here to pass on what the description says and to
// fail on every kind of drift.
const databases = databasesOfBothDialects();

const docs = defineTable('docs', {
  columns: {
    id: { type: 'bigint', identity: true },
    urn: { type: 'text', bytewise: true },
    title: { type: 'text', length: 200 },
    body: { type: 'text', nullable: true },
    draft: { type: 'boolean' },
    views: { type: 'integer', nullable: true },
  },
  primaryKey: ['id'],
  indexes: [
    { name: 'docs_urn', on: ['urn'], unique: true },
    { name: 'docs_title_views', on: ['title', 'views'] },
  ],
});

const pairs = defineTable('pairs', {
  columns: {
    a: { type: 'text', bytewise: true },
    b: { type: 'bigint' },
    value: { type: 'text' },
  },
  primaryKey: ['a', 'b'],
  indexes: [
    { name: 'pairs_b', on: ['b', 'a'] },
    { name: 'pairs_a_value', on: ['a', { md5: 'value' }], unique: true },
  ],
});

/** A migrations folder holding `statements` as its one migration. */
const folderOf = (statements: string[]) => migrationsFolder([{ when: 1_000, sql: statements.join('\n--> statement-breakpoint\n') }]);

/** A fresh database of `dialect` with `statements` applied as a package's migration. */
async function migrated(dialect: SqlDialect, statements: string[]) {
  const db = await databases[dialect].open();
  await db.migrate({ owner: 'demo', folder: folderOf(statements) });
  return db;
}

const HAND_WRITTEN = {
  sqlite: [
    'CREATE TABLE pairs (a text NOT NULL, b bigint NOT NULL, value varchar(500) NOT NULL, PRIMARY KEY (a, b)) WITHOUT ROWID',
    'CREATE INDEX pairs_b ON pairs (b, a)',
    'CREATE UNIQUE INDEX pairs_a_value ON pairs (a, value)',
  ],
  postgres: [
    'CREATE TABLE pairs (a text COLLATE "C" NOT NULL, b bigint NOT NULL, value text NOT NULL, PRIMARY KEY (a, b))',
    'CREATE INDEX pairs_b ON pairs (b, a)',
    'CREATE UNIQUE INDEX pairs_a_value ON pairs (a, md5(value))',
  ],
};

/** `pairs` as the hand-written migrations create it (WITHOUT ROWID on SQLite), changed by `change`. */
const pairsWith = (change: Partial<TableSpec<Record<string, ColumnSpec>>>) =>
  defineTable<'pairs', Record<string, ColumnSpec>>('pairs', {
    columns: pairs.columns,
    primaryKey: pairs.primaryKey,
    indexes: pairs.indexes,
    withoutRowid: true,
    ...change,
  });

describe.each(['sqlite', 'postgres'] as const)('on %s', (dialect) => {
  it("drizzle-kit's migration of the factory's tables creates what the description says", async () => {
    const statements = await pendingMigration([docs, pairs], dialect, tempDir());
    expect(statements.join('\n')).toContain(dialect === 'postgres' ? 'COLLATE "C"' : 'AUTOINCREMENT');
    const db = await migrated(dialect, statements);
    expect(await schemaInDatabase(db)).toEqual(schemaDescribed([docs, pairs], dialect));
  });

  it('a hand-written migration that says what the description says passes; every kind of drift fails', async () => {
    const db = await migrated(dialect, HAND_WRITTEN[dialect]);
    const actual = await schemaInDatabase(db);
    const described = pairsWith({});
    expect(actual).toEqual(schemaDescribed([described], dialect));

    const drifts: Record<string, AnyTableDescription> = {
      'a column the migration lacks': pairsWith({ columns: { ...pairs.columns, extra: { type: 'text', nullable: true } } }),
      'a column of another type': pairsWith({ columns: { ...pairs.columns, value: { type: 'integer' } } }),
      'a column nullable in one only': pairsWith({ columns: { ...pairs.columns, value: { type: 'text', nullable: true } } }),
      'another primary key': pairsWith({ primaryKey: ['a'] }),
      'an index the migration lacks': pairsWith({ indexes: [...pairs.indexes!, { name: 'pairs_value', on: ['value'] }] }),
      'an index on other columns': pairsWith({ indexes: [{ name: 'pairs_b', on: ['b'] }, pairs.indexes![1]!] }),
      'an index unique in one only': pairsWith({ indexes: [{ name: 'pairs_b', on: ['b', 'a'], unique: true }, pairs.indexes![1]!] }),
      ...(dialect === 'postgres'
        ? {
            'text not compared bytewise': pairsWith({ columns: { ...pairs.columns, a: { type: 'text' } } }),
            'an integer of another width': pairsWith({ columns: { ...pairs.columns, b: { type: 'integer' } } }),
            'a text of a length': pairsWith({ columns: { ...pairs.columns, value: { type: 'text', length: 500 } } }),
            'an index on a value, not its md5': pairsWith({
              indexes: [pairs.indexes![0]!, { name: 'pairs_a_value', on: ['a', 'value'], unique: true }],
            }),
          }
        : { 'a rowid table': pairsWith({ withoutRowid: false }) }),
    };
    for (const [drift, table] of Object.entries(drifts)) expect(actual, drift).not.toEqual(schemaDescribed([table], dialect));
    // A table of the migrations the description lacks, or one it has that the migrations lack.
    expect(actual).not.toEqual(schemaDescribed([], dialect));
    expect(actual).not.toEqual(schemaDescribed([described, docs], dialect));
    // A dialect-specific table written by hand is only named.
    expect(actual).not.toEqual(schemaDescribed([], dialect, { handWritten: ['pairs'] }));
    expect(await schemaInDatabase(db, { handWritten: ['pairs'] })).toEqual(schemaDescribed([], dialect, { handWritten: ['pairs'] }));
  });
});

it('drizzle-kit has nothing to generate while the newest snapshot is in step with the description', async () => {
  const folder = tempDir();
  mkdirSync(join(folder, 'meta'));
  const kit = await import('drizzle-kit/api');
  writeFileSync(join(folder, 'meta/0000_snapshot.json'), JSON.stringify(await kit.generateSQLiteDrizzleJson({ docs: docs.sqlite })));
  expect(await pendingMigration([docs], 'sqlite', folder)).toEqual([]);
  expect(await pendingMigration([docs, pairs], 'sqlite', folder)).toEqual([
    expect.stringContaining('CREATE TABLE `pairs`'),
    expect.anything(),
    expect.anything(),
  ]);
  writeFileSync(join(folder, 'meta/0000_snapshot.json'), JSON.stringify(kit.generateDrizzleJson({ docs: docs.postgres })));
  expect(await pendingMigration([docs], 'postgres', folder)).toEqual([]);
  const more = defineTable('docs', { ...docs, columns: { ...docs.columns, lang: { type: 'text', nullable: true } } });
  expect(await pendingMigration([more], 'postgres', folder)).toEqual(['ALTER TABLE "docs" ADD COLUMN "lang" text;']);
});

it('a migrations folder is in order when each entry has its file and comes after the one before', () => {
  expect(
    migrationsFolderProblems(
      migrationsFolder([
        { when: 1, sql: '' },
        { when: 2, sql: '' },
      ]),
    ),
  ).toEqual([]);
  expect(
    migrationsFolderProblems(
      migrationsFolder([
        { when: 2, sql: '' },
        { when: 1, sql: '' },
      ]),
    ),
  ).toEqual(['0001_m is dated 1, not after 0000_m (2): databases that applied 0000_m would skip it']);
});

it('derives the column lists the code needs, and refuses a description that contradicts itself', () => {
  expect(copiedTable(pairs)).toEqual({ name: 'pairs', columns: ['a', 'b', 'value'], key: ['a', 'b'] });
  expect(docs.columnNames).toEqual(['id', 'urn', 'title', 'body', 'draft', 'views']);
  expect(() => defineTable('t', { columns: { a: { type: 'text' } }, primaryKey: ['b' as 'a'] })).toThrow(
    't: the primary key names b, which is not a column',
  );
  expect(() => defineTable('t', { columns: { a: { type: 'text', nullable: true } }, primaryKey: ['a'] })).toThrow(
    't.a: a primary key column is not nullable',
  );
  expect(() => defineTable('t', { columns: { a: { type: 'text' }, n: { type: 'bigint', identity: true } }, primaryKey: ['a'] })).toThrow(
    "t.n: an identity column is the table's sole primary key",
  );
  expect(() =>
    defineTable('t', { columns: { a: { type: 'text' } }, primaryKey: ['a'], indexes: [{ name: 'i', on: ['z' as 'a'] }] }),
  ).toThrow('t: index i names z, which is not a column');
});
