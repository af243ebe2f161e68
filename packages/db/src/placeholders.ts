/**
 * A statement written with `?` placeholders (the port's) in PostgreSQL's numbered `$1, $2, …`. A `?` inside a string
 * literal, a quoted identifier or a comment is text, not a placeholder, and is left alone.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const skipTo = (end: string, from: number) => {
      const at = sql.indexOf(end, from);
      return at === -1 ? sql.length : at + end.length;
    };
    let next: number;
    if (c === "'" || c === '"')
      next = skipTo(c, i + 1); // a doubled quote inside is two literals back to back
    else if (c === '-' && sql[i + 1] === '-') next = skipTo('\n', i + 2);
    else if (c === '/' && sql[i + 1] === '*') next = skipTo('*/', i + 2);
    else {
      out += c === '?' ? `$${++n}` : c;
      i++;
      continue;
    }
    out += sql.slice(i, next);
    i = next;
  }
  return out;
}
