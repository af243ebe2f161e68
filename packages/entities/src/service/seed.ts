import type { EntityService } from './entity-service';
import { SYSTEM_ACTOR } from './entity-service';
import { anyOf } from './policy';
import { Privilege } from '@mds/auth';
import ALL_USERS from './policies/datahub-all-users-policies.json';

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

/** One entry of DataHub's boot policies file: a policy's urn and its `dataHubPolicyInfo`. */
export interface BootPolicy {
  urn: string;
  info: Record<string, unknown>;
}

/**
 * DataHub's default policies for all users, its boot file's entries copied unchanged (`boot/policies.json` at the
 * pinned commit; test/seed.test.ts compares them with the whole file): "All Users - Base Platform Privileges" (policy
 * 7), "All Users - View Entity Page" and "All Users - View Dataset Sensitive Information", all editable. The file's
 * other defaults (the root's, the roles', the asset owners') grant what mds's role table and owners' rule grant
 * whatever is stored, so they are not stored: a stored copy would withhold nothing when deactivated.
 */
export const ALL_USERS_POLICIES: readonly BootPolicy[] = ALL_USERS;

/**
 * Writes DataHub's default policies for all users at every start, as DataHub's IngestPoliciesStep does for an editable
 * default: only when no `dataHubPolicyInfo` is stored at its urn. An operator's edit or deactivation therefore holds
 * across restarts, while a deleted one comes back at the next start (DataHub's `hasPolicy` sees no aspect): to withhold
 * what a default grants, deactivate it.
 */
export async function ingestDefaultPolicies(service: EntityService, policies: readonly BootPolicy[] = ALL_USERS_POLICIES): Promise<void> {
  const stored = await service.latestOfType('dataHubPolicy', ['dataHubPolicyInfo']);
  const edits = policies
    .filter(({ urn }) => !stored.get(urn)?.has('dataHubPolicyInfo'))
    .map(({ urn, info }) => ({ urn, aspect: 'dataHubPolicyInfo', changeType: 'UPSERT' as const, value: info }));
  if (edits.length === 0) return;
  await service.write(await service.authorize(SYSTEM_ACTOR, anyOf(Privilege.EDIT_ENTITY)), edits);
}
