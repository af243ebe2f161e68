import { ROOT_ACTOR_URN } from '@mds/auth';
import { compose } from '../compose';
import { createLogger } from '../logger';
import { startServer } from '../server';
import { configFromEnv } from './run';

export async function serve(): Promise<void> {
  const config = configFromEnv();
  const logger = createLogger(config.logLevel);
  const running = await startServer(config, logger, () => compose(config, logger));
  const domains = running.composition;

  const lines = [`mds listening on ${running.url}`, `  GraphQL   ${running.url}/api/graphql`, `  GraphiQL  ${running.url}/api/graphiql`];
  if (domains.auth.isFirstStart && !config.production) {
    // A newcomer's first minute: a ready token for the explorer, printed once per new database (never logged), by
    // whichever process claimed its first start.
    const { accessToken } = await domains.auth.service.tokens.create({
      actorUrn: ROOT_ACTOR_URN,
      duration: 'ONE_MONTH',
      name: 'first-start root token',
    });
    const what = config.database.dialect === 'postgres' ? 'this database' : config.dataDir;
    lines.push(
      '',
      `First start of ${what}: a root access token (valid 30 days; shown only now):`,
      `  ${accessToken}`,
      `Paste it into the explorer's Headers as {"Authorization": "Bearer <token>"}.`,
    );
  }

  // No default password: the root user's first one is generated, stored as a hash, and shown only now, by whichever
  // process stored it (on any database whose root has none yet).
  const rootPassword = await domains.auth.service.credentials.claimRootPassword();
  if (rootPassword) {
    lines.push('', `The root user ${ROOT_ACTOR_URN} signs in with this password (shown only now):`, `  ${rootPassword}`);
  }

  const stop = async (signal: string) => {
    logger.info({ signal }, 'shutting down');
    await running.close();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Announced only now: a supervisor that signals as soon as it reads this line gets a graceful stop, not a kill.
  process.stderr.write(`${lines.join('\n')}\n`);
}
