import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { emitModel, OUTPUT_FILE } from './emit';
import { buildModel } from './model';
import { commitOf, readVendored, vendor } from './vendor';

/**
 * `model:generate` — regenerate `src/model/datahub-model.json` from the vendored inputs in `model/`.
 * `model:update --from <checkout> [--commit <sha>] [--repository <owner/name>]` — re-vendor from a DataHub checkout,
 * then regenerate.
 */
function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
}

function generate(): void {
  const model = buildModel(readVendored());
  writeFileSync(OUTPUT_FILE, emitModel(model));
  console.log(
    `wrote ${OUTPUT_FILE}: ${model.entities.length} entities, ${Object.keys(model.aspects).length} aspects, ` +
      `${Object.keys(model.types).length} types (DataHub ${model.source.commit})`,
  );
}

const [command, ...args] = process.argv.slice(2);
if (command === 'generate') {
  generate();
} else if (command === 'update') {
  const from = option(args, 'from');
  if (!from) throw new Error('model:update needs --from <DataHub checkout>');
  const checkout = resolve(from);
  const commit = option(args, 'commit') ?? commitOf(checkout);
  if (!commit) throw new Error(`${checkout} is no git checkout: name its commit with --commit <sha>`);
  const repository = option(args, 'repository') ?? 'datahub-project/datahub';
  const kept = vendor(checkout, { repository, commit });
  console.log(`vendored ${kept} PDL files from ${checkout} (${repository}@${commit})`);
  generate();
} else {
  throw new Error('usage: cli.ts generate | update --from <checkout> [--commit <sha>] [--repository <owner/name>]');
}
