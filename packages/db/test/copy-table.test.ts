import { afterAll, afterEach, expect, it } from 'vitest';
import { copiedTable, copyTable, defineTable } from '../src/index';
import { postgresTestDatabases, sqliteTestDatabases } from '../src/testing';

// An embedded installation copied into PostgreSQL (`mds migrate-to-postgres`): every row, in batches, unchanged.
const sqlite = sqliteTestDatabases();
const postgres = postgresTestDatabases();
afterEach(async () => {
  await sqlite.closeOpened();
  await postgres.closeOpened();
});
afterAll(async () => {
  await sqlite.dispose();
  await postgres.dispose();
});

const TABLE = 'CREATE TABLE rows_of (urn TEXT NOT NULL, version BIGINT NOT NULL, body TEXT, PRIMARY KEY (urn, version))';
const table = { name: 'rows_of', columns: ['urn', 'version', 'body'], key: ['urn', 'version'] };

it('copies every row of a table from SQLite into PostgreSQL, a batch at a time, values unchanged', async () => {
  const [source, target] = [await sqlite.open(), await postgres.open()];
  await source.run(TABLE);
  await target.run(TABLE);
  // More rows than one batch, keys that tie on their first column, text with quotes, accents and a NULL.
  const rows = Array.from({ length: 1_234 }, (_, i) => ({
    urn: `urn:li:tag:t${i % 50}`,
    version: Math.floor(i / 50),
    body: i % 7 ? `"é" ${i}` : null,
  }));
  await source.transaction(async (tx) => {
    for (const r of rows) await tx.run('INSERT INTO rows_of (urn, version, body) VALUES (?, ?, ?)', [r.urn, r.version, r.body]);
  });
  const seen: number[] = [];
  const copied = await target.transaction((tx) => copyTable(source, tx, table, (n) => seen.push(n)));
  expect(copied).toBe(rows.length);
  expect(seen.length).toBeGreaterThan(1);
  const order = 'ORDER BY urn, version';
  expect(await target.all(`SELECT urn, version, body FROM rows_of ${order}`)).toEqual(
    await source.all(`SELECT urn, version, body FROM rows_of ${order}`),
  );
});

it('copies nothing from an empty table, and a copy that fails leaves the target as it was', async () => {
  const [source, target] = [await sqlite.open(), await postgres.open()];
  await source.run(TABLE);
  await target.run(TABLE);
  expect(await target.transaction((tx) => copyTable(source, tx, table))).toBe(0);
  await source.run("INSERT INTO rows_of (urn, version, body) VALUES ('a', 0, 'x'), ('b', 0, 'y')");
  await target.run("INSERT INTO rows_of (urn, version, body) VALUES ('b', 0, 'already')");
  await expect(target.transaction((tx) => copyTable(source, tx, table))).rejects.toThrow();
  expect(await target.all('SELECT urn, body FROM rows_of')).toEqual([{ urn: 'b', body: 'already' }]);
});

it('copies a timestamp column (milliseconds on SQLite, a timestamp on PostgreSQL) as the same moment, both ways', async () => {
  const described = defineTable('moments', { columns: { id: { type: 'integer' }, at: { type: 'timestamp' } }, primaryKey: ['id'] });
  const [embedded, server, back] = [await sqlite.open(), await postgres.open(), await sqlite.open()];
  await embedded.run('CREATE TABLE moments (id INTEGER PRIMARY KEY NOT NULL, at INTEGER NOT NULL)');
  await server.run('CREATE TABLE moments (id integer PRIMARY KEY, at timestamp NOT NULL)');
  await back.run('CREATE TABLE moments (id INTEGER PRIMARY KEY NOT NULL, at INTEGER NOT NULL)');
  const moments = [0, 1_700_000_000_123, 1_756_801_800_250, Date.UTC(1969, 11, 31, 23, 59, 59, 999)];
  for (const [id, at] of moments.entries()) await embedded.run('INSERT INTO moments VALUES (?, ?)', [id, at]);
  expect(await server.transaction((tx) => copyTable(embedded, tx, copiedTable(described)))).toBe(moments.length);
  expect((await server.all<{ at: string }>('SELECT at::text AS at FROM moments ORDER BY id')).map((r) => r.at)).toEqual([
    '1970-01-01 00:00:00',
    '2023-11-14 22:13:20.123',
    '2025-09-02 08:30:00.25',
    '1969-12-31 23:59:59.999',
  ]);
  expect(await back.transaction((tx) => copyTable(server, tx, copiedTable(described)))).toBe(moments.length);
  expect((await back.all<{ at: number }>('SELECT at FROM moments ORDER BY id')).map((r) => r.at)).toEqual(moments);
});

it('copies a table numbered by the database in order, and the target numbers the rows written after it on from there', async () => {
  const described = defineTable('events_of', {
    columns: { id: { type: 'bigint', identity: true }, body: { type: 'text' } },
    primaryKey: ['id'],
  });
  const [embedded, server] = [await sqlite.open(), await postgres.open()];
  await embedded.run('CREATE TABLE events_of (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)');
  await server.run('CREATE TABLE events_of (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, body text NOT NULL)');
  const bodies = Array.from({ length: 450 }, (_, i) => `event ${i}`);
  for (const body of bodies) await embedded.run('INSERT INTO events_of (body) VALUES (?)', [body]);
  expect(copiedTable(described).numbered).toEqual(['id']);
  expect(await server.transaction((tx) => copyTable(embedded, tx, copiedTable(described)))).toBe(bodies.length);
  await server.run("INSERT INTO events_of (body) VALUES ('after the copy')");
  const rows = await server.all<{ id: string | number; body: string }>('SELECT id, body FROM events_of ORDER BY id');
  expect(rows.map((r) => r.body)).toEqual([...bodies, 'after the copy']);
  expect(new Set(rows.map((r) => Number(r.id))).size).toBe(bodies.length + 1);
});
