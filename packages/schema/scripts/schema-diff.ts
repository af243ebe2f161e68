import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';
import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { fileURLToPath } from 'node:url';
import { repositoryTypeDefs } from '../src/repository-sdl';
import { buildApiSchema } from '../src/sdl';

/** The committed SDL: what clients (`@mds/client` codegen) build against and what reviewers diff. */
export const SNAPSHOT_FILE = fileURLToPath(new URL('../schema.graphql', import.meta.url));
export const UPDATE_COMMAND = 'pnpm --filter @mds/schema snapshot';

const HEADER = [
  '# GENERATED FILE, do not edit: the merged SDL of sdl/base.graphql and of every module (packages/*/src/graphql, apps/*/src), types sorted by name.',
  `# Update it after changing the SDL with \`${UPDATE_COMMAND}\`; test/snapshot.test.ts fails while it is stale`,
  '# and lists the breaking changes, so any change to the public API shows up in review.',
].join('\n');

/** The snapshot text for the SDL as it is now (sorted, so file order and merge order never show as changes). */
export function renderSnapshot(): string {
  return `${HEADER}\n\n${printSchema(lexicographicSortSchema(buildApiSchema([{ typeDefs: repositoryTypeDefs() }])))}\n`;
}

export interface ClassifiedChanges {
  /** Existing clients can fail: a field, type, argument or enum value removed, a type narrowed, a required input added. */
  breaking: Change[];
  /** Existing clients keep working but may behave differently (e.g. a new enum value or union member). */
  dangerous: Change[];
  /** Additions and description changes. */
  safe: Change[];
}

/** Sorts the changes from `before` to `after` by graphql-inspector's criticality. */
export async function classifyChanges(before: GraphQLSchema, after: GraphQLSchema): Promise<ClassifiedChanges> {
  const result: ClassifiedChanges = { breaking: [], dangerous: [], safe: [] };
  for (const change of await diff(before, after)) {
    const level = change.criticality.level;
    const bucket = level === CriticalityLevel.Breaking ? 'breaking' : level === CriticalityLevel.Dangerous ? 'dangerous' : 'safe';
    result[bucket].push(change);
  }
  return result;
}

/** One line per change: `  - <path>: <message>`. */
export function formatChanges(changes: readonly Change[]): string {
  return changes.map((c) => `  - ${c.path ? `${c.path}: ` : ''}${c.message}`).join('\n');
}
