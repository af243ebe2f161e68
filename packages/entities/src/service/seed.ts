import type { EntityService } from './entity-service';
import { SYSTEM_ACTOR } from './entity-service';
import { anyOf } from './policy';
import { Privilege } from '@mds/auth';

const DATAHUB_USER = 'urn:li:corpuser:datahub';

/**
 * The rows DataHub's setup writes into an empty `metadata_aspect_v2` (docker/mysql-setup/init.sql): the root user's
 * info, so that `urn:li:corpuser:datahub` reads as DataHub's does (entities-api §3.1). Only into an empty store: an
 * operator's later edits of that user are never overwritten.
 */
export async function seedEmptyStore(service: EntityService, isEmpty: () => Promise<boolean>): Promise<void> {
  if (!(await isEmpty())) return;
  const grant = await service.authorize(SYSTEM_ACTOR, anyOf(Privilege.EDIT_ENTITY));
  const aspect = (name: string, value: Record<string, unknown>) => ({
    urn: DATAHUB_USER,
    aspect: name,
    changeType: 'UPSERT' as const,
    value,
  });
  await service.write(grant, [
    aspect('corpUserInfo', { displayName: 'Data Hub', active: true, fullName: 'Data Hub', email: 'datahub@linkedin.com' }),
    aspect('corpUserEditableInfo', {
      skills: [],
      teams: [],
      pictureLink: 'https://raw.githubusercontent.com/datahub-project/datahub/master/datahub-web-react/src/images/default_avatar.png',
    }),
  ]);
}
