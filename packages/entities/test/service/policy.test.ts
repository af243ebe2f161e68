import { Privilege } from '@mds/auth';
import type { Actor } from '@mds/schema';
import { describe, expect, it } from 'vitest';
import { anyOf, createPolicy, editPrivileges, type OwnersOf } from '../../src/service/policy';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
const TAG = 'urn:li:tag:pii';
const actor = (urn: string, ...privileges: string[]): Actor => ({ urn, privileges: new Set(privileges) });
const owner = actor('urn:li:corpuser:olivia');
const editor = actor('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY, Privilege.VIEW_ENTITY_PAGE);

/** A policy whose ownership reads are counted: OLIVIA owns DATASET (and TAG), nobody owns OTHER. */
function counted(switches?: { restApi: boolean; view: boolean }) {
  const asked: string[][] = [];
  const ownersOf: OwnersOf = async (urns) => {
    asked.push([...urns]);
    const owners = new Map([
      [DATASET, new Set([owner.urn])],
      [TAG, new Set([owner.urn])],
    ]);
    return new Map(urns.flatMap((urn) => (owners.has(urn) ? [[urn, owners.get(urn)!] as const] : [])));
  };
  return { policy: createPolicy({ switches, ownersOf }), asked };
}

describe('the policy', () => {
  it('lets the role decide without reading ownership, synchronously', () => {
    const { policy, asked } = counted();
    expect(policy.authorize(editor, { privileges: editPrivileges([Privilege.EDIT_ENTITY_TAGS]), resource: DATASET })).toBe(true);
    expect(policy.refused(editor, editPrivileges([]), [DATASET, OTHER])).toEqual([]);
    // A platform privilege no owner is granted: refused without a read.
    expect(policy.authorize(owner, { privileges: anyOf(Privilege.MANAGE_TAGS), resource: TAG })).toBe(false);
    expect(policy.refused(owner, anyOf(Privilege.DELETE_ENTITY), [DATASET])).toEqual([DATASET]);
    expect(asked).toEqual([]);
  });

  it('reads ownership only when the role does not decide and owning could, once for every resource asked', async () => {
    const { policy, asked } = counted();
    expect(await policy.refused(owner, editPrivileges([Privilege.EDIT_ENTITY_OWNERS]), [DATASET, OTHER, DATASET])).toEqual([OTHER]);
    expect(asked).toEqual([[DATASET, OTHER]]);
    expect(await policy.authorize(owner, { privileges: editPrivileges([]), resource: DATASET })).toBe(true);
    // A platform question (no resource) is never an owner's.
    expect(await policy.authorize(owner, { privileges: editPrivileges([]) })).toBe(false);
    expect(asked).toHaveLength(2);
  });

  it('grants each privilege of a group by role or by ownership, as DataHub evaluates each against every policy', async () => {
    const { policy } = counted();
    // EDIT_ENTITY_TAGS from ownership and MANAGE_TAGS from the role complete one group; neither alone does.
    const both = [[Privilege.EDIT_ENTITY_TAGS, Privilege.MANAGE_TAGS]] as const;
    expect(await policy.authorize(actor(owner.urn, Privilege.MANAGE_TAGS), { privileges: both, resource: DATASET })).toBe(true);
    expect(await policy.authorize(owner, { privileges: both, resource: DATASET })).toBe(false);
    expect(await policy.authorize(actor('urn:li:corpuser:nora', Privilege.MANAGE_TAGS), { privileges: both, resource: DATASET })).toBe(
      false,
    );
  });

  it('asks DataHub’s privileges of the REST APIs, and nothing when REST_API_AUTHORIZATION_ENABLED is off', () => {
    const { policy } = counted();
    expect(policy.restApi('READ')).toEqual([
      [Privilege.VIEW_ENTITY_PAGE],
      [Privilege.GET_ENTITY],
      [Privilege.EDIT_ENTITY],
      [Privilege.DELETE_ENTITY],
    ]);
    expect(policy.restApi('EXISTS')).toEqual([
      [Privilege.EXISTS_ENTITY],
      [Privilege.EDIT_ENTITY],
      [Privilege.DELETE_ENTITY],
      [Privilege.VIEW_ENTITY_PAGE],
      [Privilege.SEARCH],
    ]);
    expect(policy.restApi('CREATE')).toEqual([[Privilege.CREATE_ENTITY], [Privilege.EDIT_ENTITY]]);
    expect(policy.restApi('UPDATE')).toEqual([[Privilege.EDIT_ENTITY]]);
    expect(policy.restApi('DELETE')).toEqual([[Privilege.DELETE_ENTITY]]);
    expect(counted({ restApi: false, view: false }).policy.restApi('DELETE')).toBeNull();
  });

  it('restricts GraphQL views only with VIEW_AUTHORIZATION_ENABLED, and only of DataHub’s view-restricted types', () => {
    expect(counted().policy.graphqlView(DATASET)).toBeNull();
    const { policy } = counted({ restApi: true, view: true });
    expect(policy.graphqlView(DATASET)).toEqual(policy.restApi('READ'));
    expect(policy.graphqlView(TAG)).toBeNull();
    expect(policy.graphqlView('urn:li:corpuser:jdoe')).toBeNull();
    expect(policy.timeseriesView('datasetProfile')).toEqual([[Privilege.VIEW_DATASET_PROFILE]]);
    expect(policy.timeseriesView('operation')).toBeNull();
  });
});
