import { sql, type ColumnBaseConfig, type ColumnDataType } from 'drizzle-orm';
import {
  bigint as pgBigint,
  boolean as pgBoolean,
  customType as pgCustomType,
  index as pgIndex,
  integer as pgInteger,
  pgTable,
  timestamp as pgTimestamp,
  primaryKey as pgPrimaryKey,
  text as pgText,
  uniqueIndex as pgUniqueIndex,
  varchar as pgVarchar,
  type PgColumn,
  type PgColumnBuilderBase,
  type PgTable,
  type PgTableWithColumns,
} from 'drizzle-orm/pg-core';
import {
  index as sqliteIndex,
  integer as sqliteInteger,
  primaryKey as sqlitePrimaryKey,
  sqliteTable,
  text as sqliteText,
  uniqueIndex as sqliteUniqueIndex,
  type SQLiteColumn,
  type SQLiteColumnBuilderBase,
  type SQLiteTable,
  type SQLiteTableWithColumns,
} from 'drizzle-orm/sqlite-core';
import type { CopiedTable } from './copy-table';
import type { SqlDialect } from './port';

/**
 * The schema factory: a package describes each of its tables once, in portable terms, and gets drizzle's table for
 * each dialect from it (`sqliteTable`, `pgTable`), which drizzle-kit reads to generate that dialect's migrations. The
 * description is also what the code's column lists come from (`copiedTable`, `columnNames`) and what a package's test
 * compares its migrations with, on both dialects (`schemaInDatabase` / `schemaDescribed` of `@mds/db/testing`).
 */

/**
 * A column, NOT NULL unless `nullable`.
 * - `text`: `text` on both dialects, `varchar(length)` with a length (enforced by PostgreSQL only). `bytewise`: compared
 *   and sorted by bytes, as SQLite's default BINARY collation does, so `COLLATE "C"` on PostgreSQL, whatever the
 *   database's locale (every key and every column compared or sorted by the code should be).
 * - `integer` / `bigint`: SQLite's INTEGER (64 bits either way); `integer` (32 bits) / `bigint` on PostgreSQL. Read
 *   as numbers on both. `identity`: the sole primary key, numbered by the database (SQLite's `INTEGER PRIMARY KEY
 *   AUTOINCREMENT`, PostgreSQL's `GENERATED ALWAYS AS IDENTITY`).
 * - `boolean`: `boolean` on PostgreSQL (read as true/false), an INTEGER 0/1 on SQLite (read as 0/1 through the port).
 * - `timestamp`: a moment to the millisecond: milliseconds since the epoch in an INTEGER on SQLite, a `timestamp`
 *   (without time zone, read as UTC) on PostgreSQL, as a table shaped like another system's keeps it. The code reads
 *   and writes it as milliseconds through `millisecondsOf` and `timestampParameter`.
 */
export type ColumnSpec =
  | { readonly type: 'text'; readonly nullable?: boolean; readonly length?: number; readonly bytewise?: boolean }
  | { readonly type: 'integer' | 'bigint'; readonly nullable?: boolean; readonly identity?: boolean }
  | { readonly type: 'boolean' | 'timestamp'; readonly nullable?: boolean };

/** A column of an index: its name, or `{ md5: name }` for a long text compared by its md5 on PostgreSQL (a B-tree
 * entry holds at most ~2.7 kB) and by itself on SQLite. */
export type IndexKey<K extends string = string> = K | { readonly md5: K };

export interface IndexSpec<K extends string = string> {
  readonly name: string;
  readonly on: readonly [IndexKey<K>, ...IndexKey<K>[]];
  readonly unique?: boolean;
  /** Created on this dialect only (an index another system's layout has, that the other dialect has no use for). */
  readonly onlyOn?: SqlDialect;
}

export interface TableSpec<C extends Record<string, ColumnSpec>> {
  /** The columns by their SQL names, in the order of the table. */
  readonly columns: C;
  readonly primaryKey: readonly [NoInfer<keyof C & string>, ...NoInfer<keyof C & string>[]];
  readonly indexes?: readonly IndexSpec<NoInfer<keyof C & string>>[];
  /**
   * SQLite's `WITHOUT ROWID` (the rows stored in the primary key's B-tree). Checked against the migrations, but
   * drizzle-kit cannot generate it (drizzle-orm#408): a new such table's migration is edited by hand.
   */
  readonly withoutRowid?: boolean;
  /** The primary key constraint's name on PostgreSQL, when not PostgreSQL's own `<table>_pkey`. */
  readonly primaryKeyName?: string;
}

type DataOf<S extends ColumnSpec> = S['type'] extends 'text' ? string : S['type'] extends 'boolean' ? boolean : number;

/** What drizzle's types know of a described column (the code speaks SQL; this lets a drizzle query be typed). */
interface DescribedColumn<T extends string, K extends string, S extends ColumnSpec> extends ColumnBaseConfig<ColumnDataType, string> {
  name: K;
  tableName: T;
  dataType: S['type'] extends 'text' ? 'string' : S['type'] extends 'boolean' ? 'boolean' : 'number';
  columnType: string;
  data: DataOf<S>;
  driverParam: unknown;
  enumValues: undefined;
  notNull: S extends { nullable: true } ? false : true;
  hasDefault: S extends { identity: true } ? true : false;
  isPrimaryKey: boolean;
  isAutoincrement: boolean;
  hasRuntimeDefault: false;
}

export interface TableDescription<
  T extends string = string,
  C extends Record<string, ColumnSpec> = Record<string, ColumnSpec>,
> extends TableSpec<C> {
  readonly name: T;
  /** The column names in table order. */
  readonly columnNames: readonly (keyof C & string)[];
  /** The table for drizzle on SQLite, and for drizzle-kit generating migrations/sqlite. */
  readonly sqlite: SQLiteTableWithColumns<{
    name: T;
    schema: undefined;
    dialect: 'sqlite';
    columns: { [K in keyof C & string]: SQLiteColumn<DescribedColumn<T, K, C[K]>> };
  }>;
  /** The table for drizzle on PostgreSQL, and for drizzle-kit generating migrations/postgres. */
  readonly postgres: PgTableWithColumns<{
    name: T;
    schema: undefined;
    dialect: 'pg';
    columns: { [K in keyof C & string]: PgColumn<DescribedColumn<T, K, C[K]>> };
  }>;
}

/** Any described table, as code taking several of them (`copiedTable`, the checks of `@mds/db/testing`) sees it. */
export interface AnyTableDescription {
  readonly name: string;
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  readonly columnNames: readonly string[];
  readonly primaryKey: readonly string[];
  readonly indexes?: readonly IndexSpec[];
  readonly withoutRowid?: boolean;
  readonly sqlite: SQLiteTable;
  readonly postgres: PgTable;
}

/** `text COLLATE "C"` / `varchar(n) COLLATE "C"`: drizzle has no column collation (drizzle-orm#638), so a custom type. */
const pgBytewiseText = pgCustomType<{ data: string; driverData: string; config: { length?: number } }>({
  dataType: (config) => `${config?.length ? `varchar(${config.length})` : 'text'} COLLATE "C"`,
});

function sqliteColumn(name: string, spec: ColumnSpec, soleKey: boolean): SQLiteColumnBuilderBase {
  const base =
    spec.type === 'text'
      ? sqliteText(name, spec.length ? { length: spec.length } : {})
      : sqliteInteger(name, { mode: spec.type === 'boolean' ? 'boolean' : 'number' });
  if (soleKey) return base.primaryKey('identity' in spec && spec.identity ? { autoIncrement: true } : undefined);
  return spec.nullable ? base : base.notNull();
}

function pgColumn(name: string, spec: ColumnSpec, soleKey: boolean): PgColumnBuilderBase {
  let base;
  switch (spec.type) {
    case 'text':
      base = spec.bytewise
        ? pgBytewiseText(name, { length: spec.length })
        : spec.length
          ? pgVarchar(name, { length: spec.length })
          : pgText(name);
      break;
    case 'boolean':
      base = pgBoolean(name);
      break;
    case 'timestamp':
      base = pgTimestamp(name, { mode: 'string' });
      break;
    case 'integer':
    case 'bigint': {
      const number = spec.type === 'bigint' ? pgBigint(name, { mode: 'number' }) : pgInteger(name);
      if (spec.identity) return number.primaryKey().generatedAlwaysAsIdentity();
      base = number;
    }
  }
  if (soleKey) return base.primaryKey();
  return spec.nullable ? base : base.notNull();
}

const nonEmpty = <X>(items: X[]): [X, ...X[]] => {
  if (items.length === 0) throw new Error('a primary key or an index names at least one column');
  return items as [X, ...X[]];
};

/** The indexes a dialect creates. */
export const indexesOn = <I extends IndexSpec>(dialect: SqlDialect, indexes: readonly I[] = []): I[] =>
  indexes.filter((index) => (index.onlyOn ?? dialect) === dialect);

/**
 * Describes a table once for both dialects. A primary key of one column is declared on the column (so an `identity`
 * key is SQLite's rowid), one of several on the table; indexes keep the order of their columns.
 */
export function defineTable<const T extends string, const C extends Record<string, ColumnSpec>>(
  name: T,
  spec: TableSpec<C>,
): TableDescription<T, C> {
  const columnNames = Object.keys(spec.columns) as (keyof C & string)[];
  for (const key of spec.primaryKey) {
    if (!(key in spec.columns)) throw new Error(`${name}: the primary key names ${key}, which is not a column`);
    if (spec.columns[key]!.nullable) throw new Error(`${name}.${key}: a primary key column is not nullable`);
  }
  for (const [key, column] of Object.entries(spec.columns)) {
    if ('identity' in column && column.identity && (spec.primaryKey.length !== 1 || spec.primaryKey[0] !== key)) {
      throw new Error(`${name}.${key}: an identity column is the table's sole primary key`);
    }
  }
  const soleKey = spec.primaryKey.length === 1 ? spec.primaryKey[0] : undefined;
  const keyColumn = (c: IndexKey) => (typeof c === 'string' ? c : c.md5);
  for (const index of spec.indexes ?? []) {
    for (const c of index.on)
      if (!(keyColumn(c) in spec.columns)) throw new Error(`${name}: index ${index.name} names ${keyColumn(c)}, which is not a column`);
  }

  const sqliteColumns = Object.fromEntries(columnNames.map((c) => [c, sqliteColumn(c, spec.columns[c]!, c === soleKey)]));
  const sqlite = sqliteTable(name, sqliteColumns, (t) => [
    ...(soleKey ? [] : [sqlitePrimaryKey({ columns: nonEmpty(spec.primaryKey.map((c) => t[c]!)) })]),
    ...indexesOn('sqlite', spec.indexes).map((index) =>
      (index.unique ? sqliteUniqueIndex : sqliteIndex)(index.name).on(...nonEmpty(index.on.map((c) => t[keyColumn(c)]!))),
    ),
  ]);

  const pgColumns = Object.fromEntries(columnNames.map((c) => [c, pgColumn(c, spec.columns[c]!, c === soleKey)]));
  const postgres = pgTable(name, pgColumns, (t) => [
    // Named as PostgreSQL names a key of its own (drizzle's default is another name), so that drizzle-kit's snapshot
    // names the key a hand-written `PRIMARY KEY (...)` made.
    ...(soleKey
      ? []
      : [pgPrimaryKey({ name: spec.primaryKeyName ?? `${name}_pkey`, columns: nonEmpty(spec.primaryKey.map((c) => t[c]!)) })]),
    ...indexesOn('postgres', spec.indexes).map((index) =>
      (index.unique ? pgUniqueIndex : pgIndex)(index.name).on(
        ...nonEmpty(index.on.map((c) => (typeof c === 'string' ? t[c]! : sql`md5(${t[c.md5]!})`))),
      ),
    ),
  ]);

  return { ...spec, name, columnNames, sqlite, postgres } as unknown as TableDescription<T, C>;
}

/**
 * A `timestamp` column read as milliseconds since the epoch: the column on SQLite, its UTC moment on PostgreSQL (a
 * finer precision truncated).
 */
export function millisecondsOf(dialect: SqlDialect, column: string): string {
  return dialect === 'sqlite' ? column : `floor(extract(epoch FROM ${column}) * 1000)::bigint`;
}

/** The value bound for a `timestamp` column from milliseconds since the epoch: PostgreSQL takes the UTC moment as text. */
export function timestampParameter(dialect: SqlDialect, milliseconds: number): number | string {
  return dialect === 'sqlite' ? milliseconds : new Date(milliseconds).toISOString().replace('T', ' ').replace('Z', '');
}

/** A table as `copyTable` (`mds migrate-to-postgres`) needs it: every column, and the primary key's. */
export function copiedTable(table: AnyTableDescription): CopiedTable {
  const timestamps = table.columnNames.filter((c) => table.columns[c]!.type === 'timestamp');
  const numbered = table.primaryKey.filter((c) => 'identity' in table.columns[c]! && table.columns[c].identity);
  return {
    name: table.name,
    columns: table.columnNames,
    key: table.primaryKey,
    ...(timestamps.length ? { timestamps } : {}),
    ...(numbered.length ? { numbered } : {}),
  };
}
