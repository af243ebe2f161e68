import { ROLES } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const ARCHITECT = 'urn:li:ownershipType:architect';

describe("Ownership types, as DataHub's OwnershipTypeMapper and ListOwnershipTypesResolver answer them", () => {
  it("listOwnershipTypes (the UI's ownershipTypeFields): newest first, info and status; an owner's ownershipType is the entity", async () => {
    const api = await goldenGraphql(databases, ['ownership_type.json']);
    const mcp = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
      proposal: { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
      place: { action: 'test', path: aspectName },
    });
    await api.service.ingest(
      SYSTEM_ACTOR,
      [
        mcp('ownershipType', 'urn:li:ownershipType:steward', 'ownershipTypeInfo', {
          name: 'Steward',
          created: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:ada' },
          lastModified: { time: 1_700_000_000_500, actor: 'urn:li:corpuser:bob' },
        }),
        mcp('ownershipType', 'urn:li:ownershipType:steward', 'status', { removed: false }),
        mcp('glossaryNode', 'urn:li:glossaryNode:n', 'ownership', {
          owners: [{ owner: 'urn:li:corpuser:ada', type: 'CUSTOM', typeUrn: ARCHITECT }],
        }),
      ],
      { batch: true },
    );
    const data = await api.query(
      `query listOwnershipTypes($input: ListOwnershipTypesInput!) {
        listOwnershipTypes(input: $input) {
          start count total
          ownershipTypes { urn type info { name description created { time actor } lastModified { time actor } } status { removed } }
        }
        node: glossaryNode(urn: "urn:li:glossaryNode:n") { ownership { owners { ownershipType { urn type info { name } } } } }
        words: listOwnershipTypes(input: { query: "architect" }) { total ownershipTypes { urn } }
        page: listOwnershipTypes(input: { start: 1, count: 5 }) { start count total ownershipTypes { urn } }
      }`,
      { input: { start: 0, count: 1000 } },
    );
    expect(data.listOwnershipTypes).toEqual({
      start: 0,
      count: 2,
      total: 2,
      ownershipTypes: [
        {
          urn: 'urn:li:ownershipType:steward',
          type: 'CUSTOM_OWNERSHIP_TYPE',
          info: {
            name: 'Steward',
            description: null,
            created: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:ada' },
            lastModified: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:ada' },
          },
          status: { removed: false },
        },
        {
          urn: ARCHITECT,
          type: 'CUSTOM_OWNERSHIP_TYPE',
          info: {
            name: 'Architect',
            description: 'Technical person responsible for the asset',
            created: { time: 1674291843000, actor: 'urn:li:corpuser:jdoe' },
            lastModified: { time: 1674291843000, actor: 'urn:li:corpuser:jdoe' },
          },
          status: null,
        },
      ],
    });
    expect(data.node.ownership.owners).toEqual([
      { ownershipType: { urn: ARCHITECT, type: 'CUSTOM_OWNERSHIP_TYPE', info: { name: 'Architect' } } },
    ]);
    expect(data.words).toEqual({ total: 1, ownershipTypes: [{ urn: ARCHITECT }] });
    expect(data.page).toEqual({ start: 1, count: 1, total: 2, ownershipTypes: [{ urn: ARCHITECT }] });
  });
});

// The UI's documents (apps/server/test/fixtures/datahub-web-react/graphql/ownership.graphql, DataHub c731e725) and the
// variables its ownership type builder sends (variables.json).
const UI_OWNERSHIP = readFileSync(
  new URL('../../../../apps/server/test/fixtures/datahub-web-react/graphql/ownership.graphql', import.meta.url),
  'utf8',
);
const actor = (id: string, role: 'Admin' | 'Editor'): ApiContext => ({
  actor: { urn: `urn:li:corpuser:${id}`, privileges: new Set(ROLES.find((r) => r.name === role)!.privileges) },
  requestId: `test-${id}`,
});
const admin = actor('datahub', 'Admin');
const editor = actor('alice', 'Editor');
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

describe('createOwnershipType, updateOwnershipType, deleteOwnershipType (DataHub’s *OwnershipTypeResolver, OwnershipTypeService)', () => {
  const run = (api: Awaited<ReturnType<typeof goldenGraphql>>, name: string, variables: Record<string, unknown>, context = admin) =>
    // A fresh context per request, as the host gives each request its own (the loaders cache per context).
    api.run(UI_OWNERSHIP, variables, { context: { ...context }, operationName: name });
  const info = async (api: Awaited<ReturnType<typeof goldenGraphql>>, urn: string, aspect = 'ownershipTypeInfo') =>
    (await api.service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;

  it('creates ownershipTypeInfo stamped by the caller, updates what is given, and lists the new type first', async () => {
    const api = await goldenGraphql(databases, ['ownership_type.json']);
    const created = await run(api, 'createOwnershipType', {
      input: { name: 'Data steward', description: "Answers for the data's quality" },
    });
    expect(created.errors).toBeUndefined();
    const urn = created.data!.createOwnershipType.urn as string;
    expect(urn).toMatch(/^urn:li:ownershipType:[0-9a-f-]{36}$/);
    const stamp = { time: 1_700_000_000_000, actor: admin.actor.urn };
    expect(created.data!.createOwnershipType).toEqual({
      urn,
      type: 'CUSTOM_OWNERSHIP_TYPE',
      info: { name: 'Data steward', description: "Answers for the data's quality", created: stamp, lastModified: stamp },
      status: null,
    });
    expect(await info(api, urn)).toEqual({
      name: 'Data steward',
      description: "Answers for the data's quality",
      created: stamp,
      lastModified: stamp,
    });

    const updated = await run(api, 'updateOwnershipType', {
      urn,
      input: { name: 'Data steward', description: 'Answers for quality and access' },
    });
    expect(updated.data!.updateOwnershipType.info).toMatchObject({ name: 'Data steward', description: 'Answers for quality and access' });
    expect(await info(api, urn)).toMatchObject({ description: 'Answers for quality and access', lastModified: stamp });
    const listed = await run(api, 'listOwnershipTypes', { input: { start: 0, count: 10 } });
    expect(listed.data!.listOwnershipTypes.ownershipTypes.map((t: { urn: string }) => t.urn)).toEqual([urn, ARCHITECT]);
  });

  it('deletes a custom type and takes it off the owners naming it; soft-deletes a system type', async () => {
    const api = await goldenGraphql(databases, ['ownership_type.json']);
    const grant = await api.service.authorize(SYSTEM_ACTOR, [[]]);
    const owners = [
      { owner: 'urn:li:corpuser:ada', type: 'CUSTOM', typeUrn: ARCHITECT },
      { owner: 'urn:li:corpuser:bob', type: 'TECHNICAL_OWNER', typeUrn: 'urn:li:ownershipType:__system__technical_owner' },
    ];
    await api.service.write(grant, [{ urn: 'urn:li:glossaryNode:n', aspect: 'ownership', changeType: 'UPSERT', value: { owners } }]);
    expect(await run(api, 'deleteOwnershipType', { urn: ARCHITECT })).toEqual({ data: { deleteOwnershipType: true } });
    expect(await info(api, ARCHITECT)).toBeUndefined();
    expect((await info(api, 'urn:li:glossaryNode:n', 'ownership'))!.owners).toEqual([
      { owner: 'urn:li:corpuser:ada', type: 'CUSTOM' },
      owners[1],
    ]);

    const system = 'urn:li:ownershipType:__system__technical_owner';
    const technical = {
      name: 'Technical Owner',
      created: { time: 0, actor: 'urn:li:corpuser:datahub' },
      lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' },
    };
    await api.service.write(grant, [{ urn: system, aspect: 'ownershipTypeInfo', changeType: 'UPSERT', value: technical }]);
    expect(await run(api, 'deleteOwnershipType', { urn: system })).toEqual({ data: { deleteOwnershipType: true } });
    expect(await info(api, system, 'status')).toEqual({ removed: true });
    expect(await info(api, system)).toEqual(technical);
  });

  it('refuses a caller without MANAGE_GLOBAL_OWNERSHIP_TYPES and an absent type, writing nothing', async () => {
    const api = await goldenGraphql(databases, ['ownership_type.json']);
    const before = await info(api, ARCHITECT);
    for (const [name, variables] of [
      ['createOwnershipType', { input: { name: 'x', description: 'y' } }],
      ['updateOwnershipType', { urn: ARCHITECT, input: { name: 'x' } }],
      ['deleteOwnershipType', { urn: ARCHITECT }],
    ] as const) {
      const refused = await run(api, name, variables, editor);
      expect(refused.errors?.[0]).toMatchObject({ message: UNAUTHORIZED, extensions: { code: 403 } });
    }
    expect(await info(api, ARCHITECT)).toEqual(before);
    const absent = 'urn:li:ownershipType:absent';
    expect((await run(api, 'updateOwnershipType', { urn: absent, input: { name: 'x' } })).errors?.[0]).toMatchObject({
      message: `Failed to update Ownership Type. Ownership Type with urn ${absent} does not exist.`,
      extensions: { code: 400 },
    });
    expect((await run(api, 'deleteOwnershipType', { urn: absent })).errors?.[0]).toMatchObject({ extensions: { code: 400 } });
  });
});
