import { readFileSync, writeFileSync } from 'node:fs';
import type { GraphQLSchema } from 'graphql';
import { compareCoordinates, readCoordinateLines, schemaCoordinates, sortCoordinates, coordinateKey } from './coordinates';
import { operationId, readUiDocuments, validateFragment, validateOperation } from './ui-documents';

/**
 * A ratchet: a committed list of what does not work yet. Its test fails when something not on the list stops working
 * (a regression) and when something on the list starts working (the list must shrink with the work, so progress is
 * recorded and cannot slip back unseen).
 */
export interface Ratchet {
  /** The committed list. */
  file: URL;
  /** Its `#` lines: what it is and how to keep it. */
  header: string[];
  /** What does not work today, one entry a line, in the list's order. */
  current: string[];
}

export const DATAHUB_COORDINATES = new URL('datahub-coordinates.txt', import.meta.url);
export const REMAINING_COORDINATES = new URL('remaining-coordinates.txt', import.meta.url);
export const REMAINING_OPERATIONS = new URL('remaining-operations.txt', import.meta.url);

/** The queries that validate but do not yet answer every UI call without errors (ui-queries.e2e.test.ts fills `current`). */
export const queryRunRatchet: Omit<Ratchet, 'current'> = {
  file: new URL('remaining-query-runs.txt', import.meta.url),
  header: [
    "# Queries of DataHub's web UI that validate against mds's schema but do not yet answer, with the variables the UI",
    "# sends (fixtures/datahub-web-react/variables.json) over DataHub's bootstrap sample, without errors.",
    '# ui-queries.e2e.test.ts fails when such a query is not listed here, and when a listed one now answers: delete its',
    '# line then. A query that does not validate is not listed here but in remaining-operations.txt.',
  ],
};

/** The entries of a committed list: every line but blank ones and `#` comments. */
export const readList = (file: URL): string[] => readCoordinateLines(readFileSync(file, 'utf8'));

/** Writes the list as it stands today (scripts/webui-ratchets.ts). */
export const writeList = (ratchet: Ratchet) => writeFileSync(ratchet.file, `${[...ratchet.header, ...ratchet.current].join('\n')}\n`);

/**
 * What is wrong with the committed list, as a message for the one who must fix it; empty when it is exact. `reasons`
 * says why an entry does not work, for the regressions.
 */
export function ratchetProblems(ratchet: Ratchet, listed: readonly string[], reasons?: (entry: string) => string): string {
  const name = ratchet.file.pathname.split('/').slice(-3).join('/');
  const current = new Set(ratchet.current);
  const listedSet = new Set(listed);
  const duplicated = listed.filter((entry, i) => listed.indexOf(entry) !== i);
  const regressed = ratchet.current.filter((entry) => !listedSet.has(entry));
  const fixed = listed.filter((entry) => !current.has(entry));
  const parts: string[] = [];
  if (regressed.length > 0) {
    parts.push(
      `${regressed.length} not listed in ${name} (a regression, or a new difference: fix it; list it only if it is meant):\n` +
        regressed.map((entry) => `  ${entry}${reasons ? `\n      ${reasons(entry)}` : ''}`).join('\n'),
    );
  }
  if (fixed.length > 0) {
    parts.push(`${fixed.length} listed in ${name} now work: delete these lines from it:\n` + fixed.map((entry) => `  ${entry}`).join('\n'));
  }
  if (duplicated.length > 0) parts.push(`listed twice in ${name}:\n${duplicated.map((entry) => `  ${entry}`).join('\n')}`);
  return parts.join('\n\n');
}

/** How mds's schema stands against DataHub's coordinates, and the ratchet over what it lacks or types differently. */
export function coordinateRatchet(schema: GraphQLSchema) {
  const reference = readList(DATAHUB_COORDINATES);
  const comparison = compareCoordinates(reference, schemaCoordinates(schema));
  const entries = sortCoordinates([
    ...comparison.lacking.map((line) => ({ key: coordinateKey(line), line, entry: `lacking ${line}` })),
    ...comparison.differing.map(({ reference: line }) => ({ key: coordinateKey(line), line, entry: `differs ${line}` })),
  ]);
  const ratchet: Ratchet = {
    file: REMAINING_COORDINATES,
    header: [
      "# DataHub's schema coordinates (datahub-coordinates.txt) that mds's served schema lacks or types differently.",
      '# `lacking`: mds has no such type, field, argument list, value or interface; `differs`: mds has the name with',
      '# another kind, type, nullability, arguments or members. schema-coordinates.test.ts fails when a coordinate is',
      '# lacking or different and not listed here, and when a listed one now matches: delete its line then.',
    ],
    current: entries.map((e) => e.entry),
  };
  return { ratchet, comparison, referenceCount: reference.length };
}

/** The UI's operations and fragments validated against mds's schema, and the ratchet over the operations that fail. */
export function operationRatchet(schema: GraphQLSchema) {
  const { operations, fragments } = readUiDocuments();
  const results = operations.map((op) => ({ op, errors: validateOperation(schema, op) }));
  const fragmentResults = fragments.map((fragment) => ({ fragment, errors: validateFragment(schema, fragment) }));
  const ratchet: Ratchet = {
    file: REMAINING_OPERATIONS,
    header: [
      "# The operations of DataHub's web UI (test/fixtures/datahub-web-react/graphql) that do not validate against",
      "# mds's served schema, as `<file>: <kind> <name>`. ui-operations.test.ts fails when an operation does not",
      '# validate and is not listed here, and when a listed one now validates: delete its line then.',
    ],
    current: results
      .filter((r) => r.errors.length > 0)
      .map((r) => operationId(r.op))
      .sort(),
  };
  return { ratchet, results, fragmentResults };
}
