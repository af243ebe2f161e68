import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { privilegesOfRole, ROLE_URNS, ROLES } from '../src/index';
import { bearer, setup } from './helpers';

// DataHub's default policies (boot/policies.json at c731e725; fixtures/datahub/SOURCES.md): what a fresh DataHub grants
// each role, through the policies naming the role and those for all users.
interface DefaultPolicy {
  urn: string;
  info: { displayName: string; state: string; type: string; privileges: string[]; actors: { roles?: string[]; allUsers?: boolean } };
}
const POLICIES = JSON.parse(readFileSync(new URL('fixtures/datahub/policies.json', import.meta.url), 'utf8')) as DefaultPolicy[];

/** The privileges DataHub's active default policies give a holder of `roleUrn` (null: a user without a role). */
function datahubPrivileges(roleUrn: string | null): string[] {
  const granted = new Set<string>();
  for (const { info } of POLICIES) {
    const applies = info.actors.allUsers === true || (roleUrn !== null && (info.actors.roles ?? []).includes(roleUrn));
    if (info.state === 'ACTIVE' && applies) for (const privilege of info.privileges) granted.add(privilege);
  }
  return [...granted].sort();
}
const sorted = (privileges: Iterable<string>) => [...privileges].sort();

describe("The fixed roles against DataHub's default policies (boot/policies.json)", () => {
  it('reads the fixture: each role has its policies, and three apply to all users', () => {
    const named = (role: string) => POLICIES.filter((p) => p.info.actors.roles?.includes(role)).map((p) => p.info.displayName);
    expect(named(ROLE_URNS.Editor)).toEqual(['Editors - Platform Policy', 'Editors - Metadata Policy', 'Editors - Edit Metadata Entities']);
    expect(named(ROLE_URNS.Reader)).toEqual(['Readers - Platform Policy', 'Readers - Metadata Policy']);
    expect(POLICIES.filter((p) => p.info.actors.allUsers).length).toBe(3);
  });

  it.each(['Editor', 'Reader'] as const)('gives an %s exactly the privileges DataHub gives the role', (name) => {
    const role = ROLES.find((r) => r.name === name)!;
    // Compared as sorted lists, so a failure names each privilege missing or extra.
    expect(sorted(role.privileges)).toEqual(datahubPrivileges(role.urn));
    expect(sorted(privilegesOfRole(role.urn))).toEqual(datahubPrivileges(role.urn));
  });

  it('gives an Admin every privilege DataHub gives the role, and every other privilege too', () => {
    const admin = privilegesOfRole(ROLE_URNS.Admin);
    expect(datahubPrivileges(ROLE_URNS.Admin).filter((p) => !admin.has(p as never))).toEqual([]);
    for (const role of ROLES) expect([...role.privileges].filter((p) => !admin.has(p))).toEqual([]);
  });

  it('gives a user without a role only part of what DataHub gives all users (generating their own tokens)', () => {
    const none = sorted(privilegesOfRole(null));
    expect(none).toEqual(['GENERATE_PERSONAL_ACCESS_TOKENS']);
    expect(none.filter((p) => !datahubPrivileges(null).includes(p))).toEqual([]);
  });

  it("a signed-in Editor's requests carry the role's privileges", async () => {
    const { auth } = await setup();
    await auth.service.roles.assign(ROLE_URNS.Editor, ['urn:li:corpuser:eddie']);
    const { accessToken } = await auth.service.tokens.create({ actorUrn: 'urn:li:corpuser:eddie', duration: 'ONE_DAY', name: 't' });
    const actor = await auth.service.authenticate(bearer(accessToken));
    expect(sorted(actor!.privileges)).toEqual(datahubPrivileges(ROLE_URNS.Editor));
  });
});
