import { DURATION_MS, ROLE_URNS } from '@mds/auth';
import { Option, type Command } from 'commander';
import { withLocalDomains } from './local';
import { command } from './run';

const durations = Object.keys(DURATION_MS);
/** Roles by short name (`Editor`) or URN; `none` removes the role. */
const roleNames = Object.fromEntries(Object.values(ROLE_URNS).map((urn) => [urn.split(':').pop()!.toLowerCase(), urn]));

export function registerTokenCommands(program: Command): void {
  const token = program.command('token').description('manage access tokens directly on the database (DATA_DIR)');

  token
    .command('create')
    .description('mint a personal access token and print only the token')
    .requiredOption('--actor <urn>', 'the user the token acts as, e.g. urn:li:corpuser:datahub')
    .addOption(new Option('--duration <duration>', 'how long it is valid').choices(durations).default('ONE_MONTH'))
    .requiredOption('--name <name>', 'a name to recognise the token by')
    .option('--description <text>', 'what the token is for')
    .action(
      command(async (options: { actor: string; duration: string; name: string; description?: string }) => {
        const { accessToken } = await withLocalDomains((d) =>
          d.auth.service.tokens.create({
            actorUrn: options.actor,
            duration: options.duration as keyof typeof DURATION_MS,
            name: options.name,
            description: options.description,
          }),
        );
        process.stdout.write(`${accessToken}\n`);
      }),
    );

  token
    .command('list')
    .description('list stored tokens (metadata only: tokens are kept as hashes)')
    .option('--actor <urn>', 'only tokens acting as this user')
    .option('--json', 'print JSON')
    .action(
      command(async (options: { actor?: string; json?: boolean }) => {
        const filters = options.actor ? [{ field: 'actorUrn' as const, values: [options.actor], negated: false }] : [];
        const { tokens, total } = await withLocalDomains((d) => d.auth.service.tokens.list({ filters, start: 0, count: 1000 }));
        if (options.json) return void process.stdout.write(`${JSON.stringify({ total, tokens }, null, 2)}\n`);
        for (const t of tokens) {
          const expires = t.expiresAt ? new Date(t.expiresAt).toISOString() : 'never';
          process.stdout.write(`${t.id}\t${t.actorUrn}\t${t.name}\texpires ${expires}\n`);
        }
      }),
    );

  token
    .command('revoke')
    .description('revoke a token by its id (the hash shown by `token list`)')
    .argument('<id>', 'token id')
    .action(command(async (id: string) => withLocalDomains((d) => d.auth.service.tokens.revoke(id))));

  program
    .command('roles')
    .description('manage roles directly on the database')
    .command('assign')
    .description('give users a role (Admin, Editor, Reader, or none to remove it); unknown users are created')
    .argument('<role>', 'Admin | Editor | Reader | none | a role urn')
    .argument('<actors...>', 'user urns, e.g. urn:li:corpuser:alice')
    .action(
      command(async (role: string, actors: string[]) => {
        const roleUrn = role.toLowerCase() === 'none' ? null : (roleNames[role.toLowerCase()] ?? role);
        await withLocalDomains((d) => d.auth.service.roles.assign(roleUrn, actors));
      }),
    );
}
