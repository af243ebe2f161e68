import { decryptDatahubSecret, encryptDatahubSecret, Privilege } from '@mds/auth';
import type { SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type Resolvers } from '@mds/schema';
import { anyOf, type EntityService } from '../service';
import { pageOrRefuse, urnArgument, type Loaders } from './common-fields';
import { sortedPage, stampTime } from './sorted-page';
import { graphqlReader, writeAll, writeCreate } from './mutation-support';

/** DataHub's IngestionAuthUtils.canManageSecrets: every secret read and write needs MANAGE_SECRETS. */
const MANAGE = anyOf(Privilege.MANAGE_SECRETS);
const SECRET = 'dataHubSecret';
const VALUE = 'dataHubSecretValue';
/** ListSecretsResolver's default page size. */
const DEFAULT_COUNT = 20;
const NO_KEY =
  'This server has no secret key: set SECRET_SERVICE_ENCRYPTION_KEY (to the key of the DataHub whose secrets it holds, so ' +
  "DataHub's executor can read them) to store or read secrets.";

interface SecretInput {
  name: string;
  value: string;
  description?: string | null;
}

/**
 * Secrets as DataHub keeps them for its ingestion recipes (`${NAME}` in a recipe): a `dataHubSecret` entity named by
 * the secret's name whose dataHubSecretValue holds the value encrypted as DataHub's SecretService encrypts it (`v2:`,
 * AES-256-GCM under a key derived from SECRET_SERVICE_ENCRYPTION_KEY), so DataHub's executor reads what mds stores
 * and the reverse. Listing never answers values; only getSecretValues decrypts them.
 */
export function secretResolvers(
  service: EntityService,
  search: SearchIndex,
  loaders: Loaders,
  now: () => number,
  secretKey?: string,
): Resolvers {
  const keyOrRefuse = () => {
    if (!secretKey) throw badRequest(NO_KEY);
    return secretKey;
  };
  const secretUrn = (urn: string) => {
    if (urnArgument(urn).entityType !== SECRET) throw badRequest(`Invalid secret urn: ${urn}`);
    return urn;
  };
  const storedValue = async (context: ApiContext, urns: readonly string[]) => await loaders(context).reader.latest(urns, [VALUE]);

  return {
    Query: {
      // ListSecretsResolver: newest first (DataHub sorts by the created time).
      listSecrets: async (
        _parent: unknown,
        { input }: { input: { start?: number | null; count?: number | null; query?: string | null } },
        context: ApiContext,
      ) => {
        await service.authorize(context.actor, MANAGE);
        const page = pageOrRefuse(input.start, input.count ?? DEFAULT_COUNT);
        const { total, urns } = await sortedPage(
          search,
          loaders,
          context,
          { entityType: SECRET, input: input.query ?? '', filters: [] },
          { aspect: VALUE, key: (value) => stampTime(value?.created), descending: true },
          page,
        );
        const stored = await storedValue(context, urns);
        const secrets = urns.flatMap((urn) => {
          const value = stored.get(urn)?.get(VALUE)?.value;
          if (!value) return [];
          return [{ urn, name: String(value.name), description: typeof value.description === 'string' ? value.description : null }];
        });
        return { start: page.start, count: secrets.length, total, secrets };
      },
      // GetSecretValuesResolver: by name; a name with no stored secret is left out.
      getSecretValues: async (_parent: unknown, { input }: { input: { secrets: readonly string[] } }, context: ApiContext) => {
        await service.authorize(context.actor, MANAGE);
        const key = keyOrRefuse();
        const urns = [...new Set(input.secrets)].map((name) => secretUrn(`urn:li:${SECRET}:${name}`));
        const stored = await storedValue(context, urns);
        return urns.flatMap((urn) => {
          const value = stored.get(urn)?.get(VALUE)?.value;
          if (!value || typeof value.value !== 'string') return [];
          const decrypted = decryptDatahubSecret(value.value, key);
          if (decrypted === undefined)
            throw badRequest(`The value of secret ${String(value.name)} does not decrypt with this server's SECRET_SERVICE_ENCRYPTION_KEY`);
          return [{ name: String(value.name), value: decrypted }];
        });
      },
    },
    Mutation: {
      // CreateSecretResolver: the name is the urn's id, so a name is taken once.
      createSecret: async (_parent: unknown, { input }: { input: SecretInput }, { actor }: ApiContext) => {
        const grant = await service.authorize(actor, MANAGE);
        const key = keyOrRefuse();
        const urn = secretUrn(`urn:li:${SECRET}:${input.name}`);
        if (await graphqlReader(service, actor).exists(urn)) throw badRequest('This Secret already exists!');
        const time = now();
        const value = {
          name: input.name,
          value: encryptDatahubSecret(input.value, key),
          ...(input.description != null ? { description: input.description } : {}),
          created: { actor: actor.urn, time },
        };
        await writeCreate(
          service,
          grant,
          [{ urn, aspect: VALUE, changeType: 'CREATE_ENTITY', value }],
          { time },
          'This Secret already exists!',
        );
        return urn;
      },
      // UpdateSecretResolver: the stored aspect with a new name, value and (when given) description; its created kept.
      updateSecret: async (_parent: unknown, { input }: { input: SecretInput & { urn: string } }, context: ApiContext) => {
        const grant = await service.authorize(context.actor, MANAGE);
        const key = keyOrRefuse();
        const urn = secretUrn(input.urn);
        const existing = (await storedValue(context, [urn])).get(urn)?.get(VALUE)?.value;
        if (!existing) throw badRequest(`Secret for urn ${urn} doesn't exists!`);
        const value = {
          ...existing,
          name: input.name,
          value: encryptDatahubSecret(input.value, key),
          ...(input.description != null ? { description: input.description } : {}),
        };
        await writeAll(service, grant, [{ urn, aspect: VALUE, changeType: 'UPSERT', value }], { time: now() });
        return urn;
      },
      deleteSecret: async (_parent: unknown, { urn }: { urn: string }, { actor }: ApiContext) => {
        const grant = await service.authorize(actor, MANAGE);
        await service.deleteEntity(grant, secretUrn(urn));
        return urn;
      },
    },
  };
}
