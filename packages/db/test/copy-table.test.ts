import { afterAll, afterEach, expect, it } from 'vitest';
import { copyTable } from '../src/index';
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
