import type { SqlDatabase } from '@mds/db';
import { postgresTestDatabases } from '@mds/db/testing';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createIndexTableSql } from '../src/embedded/sql.js';
import { openEmbeddedStore } from '../src/embedded/store.ts';
import { documentId } from '../src/identity.ts';
import {
  openEmbeddedTimeseriesReader,
  postgresDocumentCounts,
  postgresIndexWithDocuments,
  postgresTimeseriesImport,
  type EmbeddedTimeseriesReader,
  type TimeseriesDocument,
} from '../src/index.ts';
import { openPostgresStore } from '../src/postgres/store.ts';
import { INDEX, OTHER_INDEX, doc, tempDir, writeRange } from './helpers.ts';

// What `mds migrate-to-postgres` uses of this package: an embedded store's documents read index by index in batches
// (every field, in key order, scratch tables left out), and written into the PostgreSQL store in the caller's
// transaction (all or nothing); the copy read back through the PostgreSQL store as the embedded one answered.

const PREFIXED = 'foo_dataset_operationaspect_v1';
const EMPTY = 'chart_chartusagestatisticsaspect_v1';
/** Documents with every optional field set, or not, as ingestion can leave them. */
const detailed: TimeseriesDocument[] = [
  {
    ...doc(5, { index: OTHER_INDEX }),
    eventGranularity: '{"unit":"DAY","multiple":1}',
    messageId: 'm-1',
    partitionSpec: { partition: 'p=1' },
    runId: 'run-a',
    systemMetadataJson: '{"runId":"run-a","lastObserved":5}',
  },
  {
    ...doc(6, { index: OTHER_INDEX }),
    partitionSpec: { timePartition: '{"durationMillis":86400000,"startTimeMillis":0}' },
    runId: 'run-b',
  },
  { ...doc(6, { index: OTHER_INDEX, urn: 'urn:li:dashboard:(looker,other)' }), eventJson: '{ "spaced" : "json kept verbatim" }' },
  { ...doc(1, { index: PREFIXED }), messageId: 'only-one' },
].map((d) => ({ ...d, id: documentId(d) }));

const databases = postgresTestDatabases();
const cleanups: (() => unknown)[] = [];
let file: string;
let reader: EmbeddedTimeseriesReader;

beforeAll(async () => {
  const { dir, remove } = tempDir();
  cleanups.push(remove);
  file = join(dir, 'timeseries.db');
  const store = await openEmbeddedStore({ file, indexPrefix: '' });
  await writeRange(store, 1, 2_500);
  await store.write(detailed);
  await store.close();
  // An index made by a truncation and never written, and a reindex's scratch table a crash left.
  const raw = new Database(file);
  raw.exec(createIndexTableSql(EMPTY));
  raw.exec(createIndexTableSql(`${INDEX}__reindex_9`));
  raw.close();
  reader = openEmbeddedTimeseriesReader(file);
  cleanups.push(() => reader.close());
});
afterEach(databases.closeOpened);
afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await databases.dispose();
});

/** Every row of an embedded index table, columns as stored, in key order. */
function embeddedRows(index: string) {
  const raw = new Database(file, { readonly: true });
  try {
    return raw.prepare(`SELECT * FROM "${index}" ORDER BY timestampMillis, id`).all();
  } finally {
    raw.close();
  }
}

/** Every row of a PostgreSQL index table, named as on SQLite, in key order. */
async function postgresRows(db: SqlDatabase, index: string) {
  const { table } = (await db.get<{ table: string }>('SELECT table_name AS "table" FROM timeseries_indices WHERE name = ?', [index]))!;
  return db.all(
    `SELECT timestamp_millis AS "timestampMillis", id, urn, event_granularity AS "eventGranularity", message_id AS "messageId",
       partition_spec AS "partitionSpec", run_id AS "runId", document, system_metadata AS "systemMetadata"
     FROM "${table}" ORDER BY timestamp_millis, id`,
  );
}

/** A fresh database with the PostgreSQL store's tables. */
async function emptyDatabase() {
  const db = await databases.open();
  await (await openPostgresStore({ db, indexPrefix: '' })).close();
  return db;
}

async function importAll(db: SqlDatabase, batchSize: number) {
  return db.transaction(async (tx) => {
    const target = postgresTimeseriesImport(tx);
    const written: Record<string, number> = {};
    for (const { index } of reader.indices()) written[index] = await target.importIndex(index, reader.documents(index, batchSize));
    return written;
  });
}

describe('reading an embedded store', () => {
  it('lists every index table, whatever its prefix, empty ones included, scratch tables not', () => {
    expect(reader.indices()).toEqual([
      { index: EMPTY, documents: 0 },
      { index: OTHER_INDEX, documents: 3 },
      { index: INDEX, documents: 2_500 },
      { index: PREFIXED, documents: 1 },
    ]);
  });

  it('streams an index in batches of the size asked, in key order, with every field', () => {
    const batches = [...reader.documents(INDEX, 1_000)];
    expect(batches.map((b) => b.length)).toEqual([1_000, 1_000, 500]);
    const documents = batches.flat();
    expect(documents.map((d) => d.timestampMillis)).toEqual(Array.from({ length: 2_500 }, (_, i) => i + 1));
    expect(documents[41]).toEqual(doc(42));
    expect([...reader.documents(OTHER_INDEX, 2)].flat()).toEqual(
      [...detailed.slice(0, 3)].sort((a, b) => a.timestampMillis - b.timestampMillis || (a.id < b.id ? -1 : 1)),
    );
    // A batch size dividing the table exactly ends without an empty batch.
    expect([...reader.documents(INDEX, 500)].map((b) => b.length)).toEqual([500, 500, 500, 500, 500]);
    expect([...reader.documents(EMPTY)]).toEqual([]);
  });
});

describe('importing into PostgreSQL', () => {
  it('copies every index with every field, byte for byte; the PostgreSQL store answers as the embedded one did', async () => {
    const db = await emptyDatabase();
    expect([await postgresIndexWithDocuments(db), await postgresDocumentCounts(db)]).toEqual([undefined, new Map()]);

    const written = await importAll(db, 700);
    const expected = Object.fromEntries(reader.indices().map(({ index, documents }) => [index, documents]));
    expect(written).toEqual(expected);
    expect(Object.fromEntries(await postgresDocumentCounts(db))).toEqual(expected);
    for (const index of Object.keys(expected)) {
      const rows = (await postgresRows(db, index)).map((row) => ({
        ...(row as object),
        timestampMillis: Number((row as { timestampMillis: unknown }).timestampMillis),
      }));
      expect(rows, index).toEqual(embeddedRows(index));
    }
    expect(await postgresIndexWithDocuments(db)).toBe(OTHER_INDEX);

    const embedded = await openEmbeddedStore({ file, indexPrefix: '' });
    const postgres = await openPostgresStore({ db, indexPrefix: '' });
    try {
      for (const d of [doc(3), doc(2_500), ...detailed.slice(0, 3)]) {
        const request = { index: d.index, urn: d.urn, limit: 1_000 };
        expect(await postgres.values(request)).toEqual(await embedded.values(request));
        expect(await postgres.countForTruncation(d.index, 1_000)).toEqual(await embedded.countForTruncation(d.index, 1_000));
      }
      const names = async (store: { indexSizes(): Promise<{ indexName: string }[]> }) =>
        (await store.indexSizes()).map((s) => s.indexName).sort();
      expect(await names(postgres)).toEqual(await names(embedded));
      expect(await names(postgres)).toEqual([EMPTY, OTHER_INDEX, INDEX]);
    } finally {
      await embedded.close();
      await postgres.close();
    }
    const prefixed = await openPostgresStore({ db, indexPrefix: 'foo' });
    expect((await prefixed.indexSizes()).map((s) => s.indexName)).toEqual([PREFIXED]);
    await prefixed.close();
  });

  it('is all or nothing with the caller’s transaction, and refuses a document already there', async () => {
    const db = await emptyDatabase();
    const failed = db.transaction(async (tx) => {
      await postgresTimeseriesImport(tx).importIndex(INDEX, reader.documents(INDEX, 1_000));
      throw new Error('the copy of the entities failed');
    });
    await expect(failed).rejects.toThrow('the copy of the entities failed');
    expect(await postgresDocumentCounts(db)).toEqual(new Map());

    const store = await openPostgresStore({ db, indexPrefix: '' });
    await store.write([doc(7)]);
    await store.close();
    expect(await postgresIndexWithDocuments(db)).toBe(INDEX);
    const twice = db.transaction((tx) => postgresTimeseriesImport(tx).importIndex(INDEX, reader.documents(INDEX)));
    await expect(twice).rejects.toMatchObject({ code: '23505' });
    expect(Object.fromEntries(await postgresDocumentCounts(db))).toEqual({ [INDEX]: 1 });
  });
});
