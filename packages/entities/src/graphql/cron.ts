/**
 * Checks an ingestion schedule's cron expression as DataHub does before storing it (UpsertIngestionSourceResolver:
 * five fields get a leading seconds field, then the six are parsed the way Spring's CronExpression reads them).
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
/** The shorthands Spring accepts in place of the six fields. */
const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  /** Names the field takes besides numbers (months, days of the week). */
  names?: readonly string[];
  /** Day fields also take `?`, and the `L`, `W`, `#` forms. */
  day?: 'month' | 'week';
}

const FIELDS: readonly FieldSpec[] = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31, day: 'month' },
  { name: 'month', min: 1, max: 12, names: MONTHS },
  // 0 and 7 are both Sunday.
  { name: 'day of week', min: 0, max: 7, names: DAYS, day: 'week' },
];

/** What is wrong with a cron expression, or undefined when it is one DataHub's scheduler accepts. */
export function validCron(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (MACROS.has(trimmed.toLowerCase())) return undefined;
  const parts = trimmed === '' ? [] : trimmed.split(/\s+/);
  const fields = parts.length === 5 ? ['0', ...parts] : parts;
  if (fields.length !== 6) return `a cron expression has 5 or 6 fields separated by spaces; found ${parts.length}`;
  for (const [i, field] of fields.entries()) {
    const spec = FIELDS[i]!;
    const problem = fieldProblem(field, spec);
    if (problem) return `the ${spec.name} field ${JSON.stringify(field)} ${problem}`;
  }
  return undefined;
}

function fieldProblem(field: string, spec: FieldSpec): string | undefined {
  if (spec.day && field === '?') return undefined;
  for (const item of field.split(',')) {
    const problem = itemProblem(item.toUpperCase(), spec);
    if (problem) return problem;
  }
  return undefined;
}

/** One comma-separated item: `*`, a value, a range, either with a `/step`, or a day field's `L`/`W`/`#` forms. */
function itemProblem(item: string, spec: FieldSpec): string | undefined {
  if (item === '') return 'has an empty item';
  if (spec.day === 'month' && /^(L(-\d{1,2})?|LW|\d{1,2}W)$/.test(item)) return dayNumberProblem(item, spec);
  if (spec.day === 'week' && /^([0-7]|[A-Z]{3})(L|#[1-5])$/.test(item)) return valueProblem(item.replace(/(L|#\d)$/, ''), spec);
  const [range, step, ...extra] = item.split('/');
  if (extra.length) return 'has more than one step';
  if (step !== undefined && !(/^\d+$/.test(step) && Number(step) > 0)) return `has an invalid step ${JSON.stringify(step)}`;
  if (range === '*') return undefined;
  const bounds = range!.split('-');
  if (bounds.length > 2) return `has an invalid range ${JSON.stringify(range)}`;
  for (const bound of bounds) {
    const problem = valueProblem(bound, spec);
    if (problem) return problem;
  }
  return undefined;
}

function dayNumberProblem(item: string, spec: FieldSpec): string | undefined {
  const digits = item.match(/\d+/)?.[0];
  if (digits === undefined) return undefined;
  const n = Number(digits);
  return item.startsWith('L-') ? (n <= 30 ? undefined : `has an offset above 30`) : valueProblem(digits, spec);
}

function valueProblem(value: string, spec: FieldSpec): string | undefined {
  const named = spec.names?.indexOf(value) ?? -1;
  if (named >= 0) return undefined;
  if (!/^\d+$/.test(value)) return `has ${JSON.stringify(value)}, which is no number${spec.names ? ' or name' : ''}`;
  const n = Number(value);
  if (n < spec.min || n > spec.max) return `has ${n}, outside ${spec.min}-${spec.max}`;
  return undefined;
}
