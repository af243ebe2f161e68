import type { Command } from 'commander';
import { registerIndexSizesCommand } from './index-sizes';
import { registerIngestCommand } from './ingest';
import { registerMigrateToPostgresCommand } from './migrate-to-postgres';
import { registerReindexCommand } from './reindex';
import { command } from './run';
import { serve } from './serve';
import { registerSeedCommand } from './seed';
import { registerTokenCommands } from './tokens';
import { registerTruncateCommands } from './truncate';

export function registerCommands(program: Command): void {
  program.command('serve').description('start the HTTP server (configured by environment, see README)').action(command(serve));
  registerTokenCommands(program);
  registerSeedCommand(program);
  registerIndexSizesCommand(program);
  registerTruncateCommands(program);
  registerIngestCommand(program);
  registerReindexCommand(program);
  registerMigrateToPostgresCommand(program);
}
