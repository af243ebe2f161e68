import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A database holds migrations of a package newer than this mds knows: it was written by a newer mds. */
export class DatabaseTooNewError extends Error {
  constructor(where: string, owner: string, remedy = 'point DATA_DIR at another directory') {
    super(
      `${where} holds ${owner} migrations this version of mds does not know: it was written by a newer mds. Upgrade mds, or ${remedy}.`,
    );
    this.name = 'DatabaseTooNewError';
  }
}

interface Journal {
  entries: { when: number; tag: string }[];
}

/** The timestamp of the newest migration of a drizzle-kit folder (0 for none): what a database may hold at most. */
export function newestKnownMigration(folder: string): number {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as Journal;
  return Math.max(0, ...journal.entries.map((e) => e.when));
}

/** Each package keeps its own migrations table, so packages sharing a database never see each other's history. */
export const migrationsTable = (owner: string) => `__migrations_${owner}`;
