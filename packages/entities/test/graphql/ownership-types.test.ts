import { sqliteTestDatabases } from '@mds/db/testing';
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
