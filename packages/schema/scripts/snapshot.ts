// `pnpm --filter @mds/schema snapshot`: rewrites schema.graphql from the SDL and says what changed.
import { buildSchema } from 'graphql';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { classifyChanges, formatChanges, renderSnapshot, SNAPSHOT_FILE } from './schema-diff';

const next = renderSnapshot();
const previous = existsSync(SNAPSHOT_FILE) ? readFileSync(SNAPSHOT_FILE, 'utf8') : null;
if (previous === next) {
  process.stdout.write(`${SNAPSHOT_FILE} is up to date.\n`);
} else {
  writeFileSync(SNAPSHOT_FILE, next);
  process.stdout.write(`Wrote ${SNAPSHOT_FILE}.\n`);
  if (previous !== null) {
    const changes = await classifyChanges(buildSchema(previous), buildSchema(next));
    for (const [kind, list] of Object.entries(changes)) {
      if (list.length) process.stdout.write(`${list.length} ${kind} change(s):\n${formatChanges(list)}\n`);
    }
  }
}
