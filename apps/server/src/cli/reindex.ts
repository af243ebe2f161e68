import type { Command } from 'commander';
import { withLocalDomains } from './local';
import { command } from './run';

export function registerReindexCommand(program: Command): void {
  program
    .command('reindex')
    .description('rebuild the relationships and the search index of DATA_DIR from its stored aspects (stop the server first)')
    .action(
      command(async () => {
        const started = performance.now();
        const tty = process.stderr.isTTY;
        const entities = await withLocalDomains((domains) =>
          domains.entities.service.reindex((done, total) => {
            if (tty) process.stderr.write(`\rReindexed ${done} of ${total} entities\x1b[K`);
          }),
        );
        if (tty) process.stderr.write('\n');
        process.stdout.write(`Reindexed ${entities} entities in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
      }),
    );
}
