import { isJsonObject } from '@mds/core';
import type { Actor } from '@mds/schema';
import type { AspectStore } from '../store/port';

type Json = Record<string, unknown>;
const urnsIn = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** A stored formInfo with the model's defaults where a field is absent (a COMPLETION form for the assets' owners). */
export function formInfoOf(value: Json | undefined): Json | undefined {
  if (!value) return undefined;
  const actors = isJsonObject(value.actors) ? value.actors : {};
  return { type: 'COMPLETION', prompts: [], ...value, actors: { owners: true, ...actors } };
}

/** The groups `user` is a member of: ingested (`groupMembership`) and made in mds (`nativeGroupMembership`). */
export function groupsOf(aspects: ReadonlyMap<string, { value: Json }> | undefined): Set<string> {
  return new Set([
    ...urnsIn(aspects?.get('groupMembership')?.value.groups),
    ...urnsIn(aspects?.get('nativeGroupMembership')?.value.nativeGroups),
  ]);
}

/** Whether the form's actors name `user` or one of its groups (DataHub's FormUtils.isFormAssignedToUser). */
export function namesActor(actors: Json | undefined, user: string, groups: ReadonlySet<string>): boolean {
  return urnsIn(actors?.users).includes(user) || urnsIn(actors?.groups).some((group) => groups.has(group));
}

/**
 * To whom a form is assigned on an asset, as DataHub's FormService.isFormAssignedToUser decides it: a user named by the
 * form, a member of a group it names, or (when the form asks the asset's owners, its default) an owner of the asset,
 * directly or through a group. Read from the store as the policy reads its facts, whatever the caller may read.
 */
export function formAuthority(store: AspectStore) {
  async function isAssigned(actor: Actor, formUrn: string, asset: string): Promise<boolean> {
    const stored = await store.latest([formUrn, actor.urn, asset], ['formInfo', 'groupMembership', 'nativeGroupMembership', 'ownership']);
    const info = formInfoOf(stored.get(formUrn)?.get('formInfo')?.value);
    if (!info) return false;
    const groups = groupsOf(stored.get(actor.urn));
    const actors = isJsonObject(info.actors) ? info.actors : undefined;
    if (namesActor(actors, actor.urn, groups)) return true;
    if (actors?.owners !== true) return false;
    const owners = stored.get(asset)?.get('ownership')?.value.owners;
    return (Array.isArray(owners) ? owners.filter(isJsonObject) : []).some((o) => o.owner === actor.urn || groups.has(String(o.owner)));
  }
  return { isAssigned };
}
