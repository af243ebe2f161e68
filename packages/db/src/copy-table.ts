import type { SqlExecutor } from './port';
import { millisecondsOf, timestampParameter } from './schema-factory';

/** Rows read and written per statement: a few hundred keeps each multi-row INSERT under SQLite's parameter limit. */
const ROWS_PER_BATCH = 200;

/** A table as a copy needs it: its columns, and the primary key's (a prefix of them, in key order). */
export interface CopiedTable {
  name: string;
  columns: readonly string[];
  key: readonly string[];
  /** Columns of the schema factory's `timestamp` type: copied as the same moment to the millisecond whatever the dialects. */
  timestamps?: readonly string[];
  /**
   * An identity key the target numbers itself (a PostgreSQL `GENERATED ALWAYS` column takes no value): read for
   * paging, not written. Rows go in key order, so they keep their order, and the target's numbering goes on after them.
   */
  numbered?: readonly string[];
}

/**
 * Copies every row of `table` from one database into another (either dialect to either), in key order, a batch at
 * a time: keyset paging on `key` (the primary key's columns, a prefix of `columns`), so a table of millions of rows is
 * never held whole. Runs in the caller's transaction on the target. Answers how many rows were copied.
 */
export async function copyTable(
  source: SqlExecutor,
  target: SqlExecutor,
  table: CopiedTable,
  progress: (copied: number) => void = () => {},
): Promise<number> {
  const numbered = new Set(table.numbered);
  const written = table.columns.filter((c) => !numbered.has(c));
  const columns = written.map((c) => `"${c}"`).join(', ');
  const timestamps = new Set(table.timestamps);
  const selected = table.columns
    .map((c) => (timestamps.has(c) ? `${millisecondsOf(source.dialect, `"${c}"`)} AS "${c}"` : `"${c}"`))
    .join(', ');
  const keyList = table.key.map((c) => `"${c}"`).join(', ');
  const row = `(${written.map(() => '?').join(', ')})`;
  let after: unknown[] | undefined;
  let copied = 0;
  for (;;) {
    const where = after ? `WHERE (${keyList}) > (${table.key.map(() => '?').join(', ')})` : '';
    const rows = await source.all<Record<string, unknown>>(`SELECT ${selected} FROM "${table.name}" ${where} ORDER BY ${keyList} LIMIT ?`, [
      ...(after ?? []),
      ROWS_PER_BATCH,
    ]);
    if (rows.length === 0) return copied;
    await target.run(
      `INSERT INTO "${table.name}" (${columns}) VALUES ${rows.map(() => row).join(', ')}`,
      rows.flatMap((r) => written.map((c) => (timestamps.has(c) ? timestampParameter(target.dialect, Number(r[c])) : r[c]))),
    );
    copied += rows.length;
    progress(copied);
    const last = rows.at(-1)!;
    after = table.key.map((c) => last[c]);
  }
}
