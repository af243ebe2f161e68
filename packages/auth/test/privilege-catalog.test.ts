import { describe, expect, it } from 'vitest';
import { ALL_PRIVILEGES, Privilege, PRIVILEGE_INFO } from '../src/index';

// Facts from DataHub's metadata-utils/.../authorization/PoliciesConfig.java (commit c731e725).
describe('the privilege catalog', () => {
  it('describes every privilege, each as a platform or a resource privilege with a display name', () => {
    expect(new Set(Object.keys(PRIVILEGE_INFO))).toEqual(ALL_PRIVILEGES);
    for (const [name, info] of Object.entries(PRIVILEGE_INFO)) {
      expect(['PLATFORM', 'RESOURCE'], name).toContain(info.type);
      expect(info.displayName.trim(), name).not.toBe('');
      expect(info.description.trim(), name).not.toBe('');
    }
  });

  it("sorts them as DataHub's PoliciesConfig does", () => {
    expect(PRIVILEGE_INFO[Privilege.MANAGE_POLICIES]).toMatchObject({ type: 'PLATFORM', displayName: 'Manage Policies' });
    expect(PRIVILEGE_INFO[Privilege.MANAGE_USERS_AND_GROUPS]).toMatchObject({ type: 'PLATFORM', displayName: 'Manage Users & Groups' });
    expect(PRIVILEGE_INFO[Privilege.EDIT_ENTITY_TAGS]).toMatchObject({ type: 'RESOURCE', displayName: 'Edit Tags' });
    expect(PRIVILEGE_INFO[Privilege.EDIT_ENTITY_DEPRECATION]).toMatchObject({ type: 'RESOURCE', displayName: 'Edit Deprecation' });
    expect(PRIVILEGE_INFO[Privilege.GET_ENTITY]).toMatchObject({ type: 'RESOURCE', displayName: 'Get Entity + Relationships API' });
    const platform = Object.values(PRIVILEGE_INFO).filter((info) => info.type === 'PLATFORM');
    expect(platform).toHaveLength(38);
  });
});
