import { createHash } from 'node:crypto';
import pg from 'pg';
import { numberPlaceholders } from './placeholders';

/** Texts given a name, at most: each connection of the pool may hold every one of them prepared. */
const MAX_NAMED = 256;
/** Longer texts are multi-row batches, whose execution dwarfs their parse and whose shapes are many: never named. */
const MAX_NAMED_LENGTH = 4096;
/** Uses of a text before it is named: a statement run once is not left prepared on a connection. */
const USES_BEFORE_NAMED = 2;
/** Texts counted (and their numbered form kept) before the count starts over; named texts are kept apart. */
const MAX_COUNTED = 2000;

// A named statement the server does not hold as this pool prepared it: 26000 invalid_sql_statement_name (it is gone:
// DISCARD ALL, or a pooler in transaction mode handing each transaction another server connection), 42P05
// duplicate_prepared_statement (the name is taken on a server connection the pool did not prepare it on: the same).
const NOT_OURS = new Set(['26000', '42P05']);
/** 0A000 with this message: a DDL changed the type of a result column of a prepared statement since it was prepared. */
const RESULT_TYPE_CHANGED = /cached plan must not change result type/;

interface Statement {
  /** The text with PostgreSQL's numbered placeholders. */
  text: string;
  uses: number;
}

/**
 * Statements as `pg` sends them: `?` placeholders numbered, and a repeated statement named, so that each connection
 * parses it once and PostgreSQL plans it from its plan cache (a generic plan once it finds one no dearer than its
 * custom plans, as for any prepared statement) rather than parsing, analysing and planning it again for every call.
 * On the credential lookup of every request that is two thirds of PostgreSQL's CPU for the statement.
 *
 * A name is derived from the text (a hash), so one text has one name on every connection and every replica, and a
 * name never stands for two texts. `pg` keeps per connection which names it has prepared and sends the text along the
 * first time on each: a new connection (after a restart or `pg_terminate_backend`) prepares again by itself, and a
 * DDL on the tables makes PostgreSQL re-plan by itself. Two cases are not healed by the server and are handled here,
 * a statement outside a transaction being run again (the error came before it executed), one inside failing its
 * transaction once:
 * - a DDL changed the type of a column the statement returns (0A000): the text gets a new name, prepared afresh;
 * - the server does not hold what this pool prepared (26000, 42P05: DISCARD ALL, a pooler in transaction mode): names
 *   are given up for the pool, every statement is sent unnamed.
 *
 * Only statements with parameters are named: those already go through the extended protocol (parse, bind, execute),
 * so a statement without any keeps the simple protocol and its freedom to hold several commands.
 */
export function createStatements() {
  const counted = new Map<string, Statement>();
  /** Named texts by the port's SQL: their numbered text and their current name. */
  const named = new Map<string, { text: string; name: string }>();
  let naming = true;
  let renamed = 0;

  const nameOf = (text: string) => `mds_${createHash('sha1').update(text).digest('base64url').slice(0, 22)}`;

  /** What to send for `sql`: its numbered text, and a name once it is worth preparing. */
  function statementOf(sql: string, params: readonly unknown[] | undefined): { text: string; name?: string } {
    const known = named.get(sql);
    if (known) return naming ? known : { text: known.text };
    // Multi-row batches of every size would otherwise fill the count with texts of tens of kilobytes each.
    if (sql.length > MAX_NAMED_LENGTH) return { text: numberPlaceholders(sql) };
    let statement = counted.get(sql);
    if (!statement) {
      if (counted.size >= MAX_COUNTED) counted.clear();
      counted.set(sql, (statement = { text: numberPlaceholders(sql), uses: 0 }));
    }
    statement.uses++;
    const nameable =
      naming &&
      params?.length &&
      statement.uses >= USES_BEFORE_NAMED &&
      named.size < MAX_NAMED &&
      statement.text.length <= MAX_NAMED_LENGTH;
    if (!nameable) return { text: statement.text };
    const name = nameOf(statement.text);
    named.set(sql, { text: statement.text, name });
    counted.delete(sql);
    return { name, text: statement.text };
  }

  /**
   * The query `pg` sends for `sql`, built from its text: given a config object (the only way to name a statement),
   * `pg` copies it property descriptor by descriptor, 4 µs a statement, where a text costs nothing.
   */
  function queryOf(sql: string, params: readonly unknown[] | undefined): pg.Query {
    const { text, name } = statementOf(sql, params);
    const query = new pg.Query(text, params as unknown[] | undefined);
    if (name !== undefined) (query as Named).name = name;
    return query;
  }

  /** Whether the error calls for another try, after mending what caused it. */
  function mend(sql: string, name: string, error: unknown): boolean {
    const { code, message } = (error ?? {}) as { code?: string; message?: string };
    if (code && NOT_OURS.has(code)) {
      naming = false;
      return true;
    }
    const known = named.get(sql);
    if (code === '0A000' && RESULT_TYPE_CHANGED.test(message ?? '') && known?.name === name) {
      known.name = `${nameOf(known.text)}_${++renamed}`;
      return true;
    }
    return false;
  }

  return {
    /** Runs `sql` on the pool (run once more after a mended failure) or on a transaction's connection. */
    async query(on: pg.Pool | pg.PoolClient, sql: string, params: readonly unknown[] | undefined): Promise<pg.QueryResult> {
      const first = queryOf(sql, params);
      try {
        return await send(on, first);
      } catch (error) {
        const { name } = first as Named;
        if (name === undefined || !mend(sql, name, error) || !(on instanceof pg.Pool)) throw error;
        return await send(on, queryOf(sql, params));
      }
    },
  };
}

type Named = pg.Query & { name?: string };

/**
 * Runs a query object: the pool checks a connection out for it and attaches its own callback; on a connection, a query
 * object is answered through its callback alone.
 */
function send(on: pg.Pool | pg.PoolClient, query: pg.Query): Promise<pg.QueryResult> {
  if (on instanceof pg.Pool) return on.query(query as unknown as pg.QueryConfig);
  return new Promise((resolve, reject) => {
    (query as { callback?: (error: Error | null, result: pg.QueryResult) => void }).callback = (error, result) =>
      error ? reject(error) : resolve(result);
    on.query(query);
  });
}
