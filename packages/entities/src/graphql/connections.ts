import { decryptDatahubSecret, encryptDatahubSecret, Privilege } from '@mds/auth';
import { findEntityOfUrn, isJsonObject, urnTypeOf } from '@mds/core';
import { badRequest, type ApiContext, type EntityParent, type Resolvers } from '@mds/schema';
import { randomUUID } from 'node:crypto';
import { anyOf, type EntityService } from '../service';
import { COMMON_RULES } from './common';
import { refWithKey, urnArgument, type Json, type Loaders } from './common-fields';
import { entityTypeResolvers } from './mapping/declare';
import { writeAll } from './mutation-support';
import { entityRef } from './typenames';

const MANAGE = anyOf(Privilege.MANAGE_CONNECTIONS);
const DETAILS = 'dataHubConnectionDetails';
const PLATFORM = 'dataPlatformInstance';
const UPSERT_DENIED = 'Unauthorized to upsert Connection. Please contact your DataHub administrator for more information.';

/** The error of a blob that cannot be encrypted or decrypted because the server was given no key. */
const noKey = () =>
  badRequest(
    'Connections with a JSON blob need the secret key: start mds with SECRET_SERVICE_ENCRYPTION_KEY set (the same as DataHub’s, to read what it stored).',
  );

/**
 * Connections (DataHub's UpsertConnectionResolver, ConnectionService, DataHubConnectionType and ConnectionMapper): a
 * connection is answered only when both its dataHubConnectionDetails and dataPlatformInstance are stored; its blob is
 * stored encrypted as DataHub's SecretService encrypts (`v2:` AES-256-GCM under SECRET_SERVICE_ENCRYPTION_KEY, so
 * DataHub reads what mds wrote and the reverse) and answered decrypted only to who holds MANAGE_CONNECTIONS.
 */
export function connectionResolvers(service: EntityService, loaders: Loaders, secret: string | undefined): Resolvers[] {
  const stored = async (urn: string, context: ApiContext) => {
    const aspects = await loaders(context).aspects(urn);
    return { details: aspects?.get(DETAILS)?.value, platform: aspects?.get(PLATFORM)?.value };
  };
  return [
    {
      Query: {
        connection: async (_parent, { urn }, context) => {
          urnArgument(urn);
          if (urnTypeOf(urn) !== 'dataHubConnection') return null;
          const { details, platform } = await stored(urn, context);
          return details && platform ? (entityRef(urn) ?? null) : null;
        },
      },
      Mutation: {
        upsertConnection: async (_parent, { input }, { actor }) => {
          const urn = `urn:li:dataHubConnection:${input.id ?? randomUUID()}`;
          urnArgument(urn);
          const grant = await service.authorize(actor, MANAGE, [urn], UPSERT_DENIED);
          urnArgument(input.platformUrn);
          // DataHub stores any urn here; one of another type would leave `platform: DataPlatform!` unanswerable.
          if (findEntityOfUrn(input.platformUrn)?.name !== 'dataPlatform')
            throw badRequest(`Failed to upsert a Connection: platformUrn ${input.platformUrn} is no data platform urn.`);
          if (input.type === 'JSON' && !input.json) throw badRequest("Connections with type JSON must provide the field 'json'.");
          if (input.json && !secret) throw noKey();
          const details: Json = { type: input.type };
          // The name defaults to the id, as ConnectionService names it.
          const name = input.name ?? input.id;
          if (name != null) details.name = name;
          if (input.json) details.json = { encryptedBlob: encryptDatahubSecret(input.json.blob, secret!) };
          await writeAll(service, grant, [
            { urn, aspect: DETAILS, changeType: 'UPSERT', value: details },
            { urn, aspect: PLATFORM, changeType: 'UPSERT', value: { platform: input.platformUrn } },
          ]);
          return entityRef(urn) as EntityParent;
        },
      },
      DataHubConnection: {
        // The connection's urn rides along, for `json` to read its blob.
        details: async (parent, _args, context) => {
          const { details } = await stored(parent.urn, context);
          return { type: 'JSON', name: typeof details?.name === 'string' ? details.name : null, urn: parent.urn } as never;
        },
      },
      DataHubConnectionDetails: {
        json: async (parent, _args, context) => {
          const urn = (parent as { urn: string }).urn;
          const { details } = await stored(urn, context);
          const json = isJsonObject(details?.json) ? details.json : undefined;
          if (!json || !(await service.allows(context.actor, MANAGE))) return null;
          if (!secret) throw noKey();
          const blob = typeof json.encryptedBlob === 'string' ? decryptDatahubSecret(json.encryptedBlob, secret) : undefined;
          if (blob === undefined)
            throw badRequest(
              `The blob of ${urn} does not decrypt under this server's SECRET_SERVICE_ENCRYPTION_KEY (stored under another key?).`,
            );
          return { blob };
        },
      },
    },
    entityTypeResolvers(
      loaders,
      [
        {
          entity: 'dataHubConnection',
          fields: { platform: (e) => (isJsonObject(e.value(PLATFORM)) ? e.value(PLATFORM)!.platform : undefined) },
        },
      ],
      { rules: COMMON_RULES, ref: refWithKey },
    ),
  ];
}
