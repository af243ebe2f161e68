import { graphql } from './api';

export interface Me {
  urn: string;
  username: string;
  role: 'Admin' | 'Editor' | 'Reader';
}

const ME = `query consoleMe { me { corpUser { urn username } platformPrivileges { managePolicies manageTags } } }`;

/**
 * The signed-in user and the role their privileges show. `me` carries no role, but each role has a privilege the
 * lesser ones lack (spec §3): MANAGE_POLICIES only Admin, MANAGE_TAGS Admin and Editor. A user without a role holds
 * what a Reader holds and is shown as one.
 */
export async function whoAmI(): Promise<Me> {
  const { me } = await graphql<{
    me: { corpUser: { urn: string; username: string }; platformPrivileges: { managePolicies: boolean; manageTags: boolean } };
  }>(ME);
  const { managePolicies, manageTags } = me.platformPrivileges;
  return { ...me.corpUser, role: managePolicies ? 'Admin' : manageTags ? 'Editor' : 'Reader' };
}
