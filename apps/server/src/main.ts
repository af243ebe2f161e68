import { Command } from 'commander';
import { registerCommands } from './cli/commands';
import { version } from './version';

const program = new Command('mds')
  .description("mds: a lightweight metadata service that speaks DataHub's API")
  .version(version)
  .showHelpAfterError()
  .configureOutput({ outputError: (text, write) => write(text) });
// Usage errors exit 2, runtime failures 1 (see cli/run.ts).
program.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
registerCommands(program);
await program.parseAsync(process.argv);
