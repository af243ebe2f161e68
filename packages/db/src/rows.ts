import type { SqlExecutor } from './port';

/** What a write of many rows does with a row whose unique key is already taken. */
export type OnConflict =
  /** Fails the statement (and the transaction): the caller knows no row can conflict. */
  | 'fail'
  /** Skips the row. */
  | 'ignore'
  /** Overwrites the stored row's other columns with the new row's; `replaceOn` names the unique key's columns. */
  | { replaceOn: readonly string[] };

export interface RowsWrite {
  table: string;
  columns: readonly string[];
  rows: readonly (readonly unknown[])[];
  onConflict?: OnConflict;
}

/** Bound values per statement: under SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_PARAMS = 10_000;
/** Characters of text per statement, so that a batch of wide aspects (a schema of thousands of fields) goes in parts. */
const MAX_TEXT = 4 << 20;

function conflictClause(write: RowsWrite): string {
  const { onConflict = 'fail', columns } = write;
  if (onConflict === 'fail') return '';
  if (onConflict === 'ignore') return ' ON CONFLICT DO NOTHING';
  const replaced = columns.filter((column) => !onConflict.replaceOn.includes(column));
  return ` ON CONFLICT (${onConflict.replaceOn.join(', ')}) DO UPDATE SET ${replaced.map((c) => `${c} = excluded.${c}`).join(', ')}`;
}

/** Consecutive runs of rows within the statement limits. */
function* chunks(rows: readonly (readonly unknown[])[], width: number): Generator<(readonly unknown[])[]> {
  let chunk: (readonly unknown[])[] = [];
  let text = 0;
  for (const row of rows) {
    const size = row.reduce<number>((sum, value) => sum + (typeof value === 'string' ? value.length : 8), 0);
    if (chunk.length > 0 && ((chunk.length + 1) * width > MAX_PARAMS || text + size > MAX_TEXT)) {
      yield chunk;
      chunk = [];
      text = 0;
    }
    chunk.push(row);
    text += size;
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * The one-row INSERT of a write's table, columns and conflict rule, built once per shape: the same string object each
 * time, so the executor's statement lookup hashes it once, and a write of a few rows allocates no SQL text.
 */
const oneRowInserts = new Map<string, string>();
function oneRowInsert(write: RowsWrite): string {
  const { onConflict = 'fail' } = write;
  const rule = typeof onConflict === 'string' ? onConflict : onConflict.replaceOn.join(',');
  const shape = `${write.table}\u0000${write.columns.join(',')}\u0000${rule}`;
  let sql = oneRowInserts.get(shape);
  if (sql === undefined) {
    sql = `INSERT INTO ${write.table} (${write.columns.join(', ')}) VALUES (${write.columns.map(() => '?').join(', ')})${conflictClause(write)}`;
    oneRowInserts.set(shape, sql);
  }
  return sql;
}

/**
 * Writes rows in as few round trips as the dialect makes worthwhile. On PostgreSQL every statement is a round trip to
 * the server: rows go many to a statement. On SQLite a statement is a function call, and a statement of several rows
 * that may fail halfway opens a statement journal, at which FTS5 writes its pending index out (a segment each time):
 * rows go one to a statement, prepared once.
 */
export async function writeRows(tx: SqlExecutor, write: RowsWrite): Promise<void> {
  if (write.rows.length === 0) return;
  if (tx.dialect === 'sqlite') {
    const sql = oneRowInsert(write);
    for (const row of write.rows) await tx.run(sql, row);
    return;
  }
  const head = `INSERT INTO ${write.table} (${write.columns.join(', ')}) VALUES `;
  const tuple = `(${write.columns.map(() => '?').join(', ')})`;
  const tail = conflictClause(write);
  for (const chunk of chunks(write.rows, write.columns.length)) {
    await tx.run(head + chunk.map(() => tuple).join(', ') + tail, chunk.flat());
  }
}

/** Deletes the rows whose `columns` hold one of `keys` (a value per column), in as few round trips as worthwhile. */
export async function deleteRows(
  tx: SqlExecutor,
  target: { table: string; columns: readonly string[] },
  keys: readonly (readonly unknown[])[],
): Promise<void> {
  if (keys.length === 0) return;
  const { table, columns } = target;
  if (tx.dialect === 'sqlite') {
    const sql = `DELETE FROM ${table} WHERE ${columns.map((column) => `${column} = ?`).join(' AND ')}`;
    for (const key of keys) await tx.run(sql, key);
    return;
  }
  const tuple = columns.length === 1 ? '?' : `(${columns.map(() => '?').join(', ')})`;
  const selected = columns.length === 1 ? columns[0] : `(${columns.join(', ')})`;
  for (const chunk of chunks(keys, columns.length)) {
    await tx.run(`DELETE FROM ${table} WHERE ${selected} IN (${chunk.map(() => tuple).join(', ')})`, chunk.flat());
  }
}
