import type { AspectStore } from './aspect-store';

const DATAHUB_USER = 'urn:li:corpuser:datahub';
const SYSTEM_ACTOR = 'urn:li:corpuser:__datahub_system';

/**
 * The rows DataHub's setup writes into an empty `metadata_aspect_v2` (docker/mysql-setup/init.sql): the root user's
 * info, so that `urn:li:corpuser:datahub` reads as DataHub's does (entities-api §3.1). Only into an empty store: an
 * operator's later edits of that user are never overwritten.
 */
export async function seedEmptyStore(store: AspectStore, now: () => number): Promise<void> {
  if (!(await store.isEmpty())) return;
  const aspect = (name: string, value: Record<string, unknown>) => ({
    urn: DATAHUB_USER,
    entityType: 'corpuser',
    aspect: name,
    changeType: 'UPSERT' as const,
    value,
  });
  await store.write(
    [
      aspect('corpUserInfo', { displayName: 'Data Hub', active: true, fullName: 'Data Hub', email: 'datahub@linkedin.com' }),
      aspect('corpUserEditableInfo', {
        skills: [],
        teams: [],
        pictureLink: 'https://raw.githubusercontent.com/datahub-project/datahub/master/datahub-web-react/src/images/default_avatar.png',
      }),
    ],
    { actor: SYSTEM_ACTOR, time: now() },
  );
}
