import { SYSTEM_ACTOR_URN, type UserDirectory } from '@mds/auth';
import { findEntityOfUrn, isJsonObject } from '@mds/core';
import { SYSTEM_ACTOR, type EntityService } from './entity-service';

/**
 * The users' entities as native sign-in needs them, through the entity service as the system: existence, whether a
 * user may sign in, the aspects a sign-up writes, and DataHub's `corpUserCredentials` of a migrated database.
 */
export function entityUserDirectory(service: EntityService): UserDirectory {
  const reader = service.reader(SYSTEM_ACTOR, { api: 'graphql' });
  const edit = (urn: string) => service.authorizeEdit(SYSTEM_ACTOR, [urn], []);
  return {
    exists: (urn) => reader.exists(urn, { includeSoftDeleted: true }),
    async isActive(urn) {
      const aspects = (await reader.latest([urn], ['corpUserStatus', 'status'])).get(urn);
      const status = aspects?.get('corpUserStatus')?.value.status;
      return status !== 'SUSPENDED' && aspects?.get('status')?.value.removed !== true;
    },
    async createNativeUser(urn, { fullName, email, title }) {
      const lastModified = { actor: SYSTEM_ACTOR_URN, time: Date.now() };
      await service.write(await edit(urn), [
        {
          urn,
          aspect: 'corpUserInfo',
          changeType: 'UPSERT',
          value: { fullName, displayName: fullName, email, title, active: true },
        },
        { urn, aspect: 'corpUserStatus', changeType: 'UPSERT', value: { status: 'ACTIVE', lastModified } },
      ]);
    },
    async datahubCredentials(urn) {
      const value = (await reader.latest([urn], ['corpUserCredentials'])).get(urn)?.get('corpUserCredentials')?.value;
      return isJsonObject(value) && typeof value.salt === 'string' && typeof value.hashedPassword === 'string'
        ? { salt: value.salt, hashedPassword: value.hashedPassword }
        : undefined;
    },
    async forgetDatahubCredentials(urn) {
      const entity = findEntityOfUrn(urn);
      if (entity) await service.deleteAspects(await edit(urn), urn, entity, ['corpUserCredentials']);
    },
  };
}
