import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { schemaOf } from './schema';
import { anyOf, createEntities, createEntityGraphql, SYSTEM_ACTOR, type EntityFace } from '../../src/index';
import { Privilege } from '@mds/auth';

const dirs: string[] = [];
const opened: SqlDatabase[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const SEARCH = `query ($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { start count total searchResults { entity { urn type } matchedFields { name value } } }
}`;
const reader: ApiContext = { actor: { urn: 'urn:li:corpuser:reader', privileges: new Set() }, requestId: 'test' };

/** Tags written as aspects, and searchAcrossEntities with a TAG face that records what it was asked. */
async function setup(tags: [id: string, name: string][]) {
  const dir = mkdtempSync(join(tmpdir(), 'mds-search-module-'));
  dirs.push(dir);
  const db = openSqliteDatabase(join(dir, 'entities.db'));
  opened.push(db);
  const entities = await createEntities({ db });
  const grant = await entities.service.authorize(SYSTEM_ACTOR, anyOf(Privilege.MANAGE_TAGS));
  for (const [id, name] of tags) {
    await entities.service.write(grant, [{ urn: `urn:li:tag:${id}`, aspect: 'tagProperties', changeType: 'UPSERT', value: { name } }]);
  }
  const asked: string[][] = [];
  const face: EntityFace = async (urns) => {
    asked.push([...urns]);
    return new Map(urns.filter((urn) => !urn.endsWith(':hidden')).map((urn) => [urn, { __typename: 'Tag', urn, type: 'TAG', name: urn }]));
  };
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search, faces: { TAG: face } }));
  const search = async (input: Record<string, unknown>) =>
    (await graphql({ schema, source: SEARCH, variableValues: { input }, contextValue: reader })) as ExecutionResult<Record<string, any>>;
  return { search, asked };
}

describe('searchAcrossEntities over the search index', () => {
  it('asks each face once per request, for its hits only, and lists by name', async () => {
    const { search, asked } = await setup([
      ['b', 'beta'],
      ['a', 'Alpha'],
      ['c', 'Gamma'],
    ]);
    const { data } = await search({ query: '*' });
    // The seeded root user ("Data Hub") answers through this package's own face; only the tags go to the TAG face.
    expect(data!.searchAcrossEntities.searchResults.map((r: any) => r.entity.urn)).toEqual([
      'urn:li:tag:a',
      'urn:li:tag:b',
      'urn:li:corpuser:datahub',
      'urn:li:tag:c',
    ]);
    expect(data!.searchAcrossEntities.total).toBe(4);
    expect(asked).toEqual([['urn:li:tag:a', 'urn:li:tag:b', 'urn:li:tag:c']]);
  });

  it('finds nothing for types without a face, and leaves out hits a face cannot answer', async () => {
    const { search, asked } = await setup([
      ['shown', 'Finance'],
      ['hidden', 'Finance too'],
    ]);
    expect((await search({ query: '*', types: ['GLOSSARY_TERM'], start: 3 })).data).toEqual({
      searchAcrossEntities: { start: 3, count: 0, total: 0, searchResults: [] },
    });
    expect(asked).toEqual([]);
    const found = (await search({ query: 'finance', types: ['TAG'] })).data!.searchAcrossEntities;
    expect(found.searchResults.map((r: any) => [r.entity.urn, r.matchedFields])).toEqual([
      ['urn:li:tag:shown', [{ name: 'name', value: 'Finance' }]],
    ]);
    expect(found.count).toBe(1);
  });

  it('refuses bad paging and unknown filter fields with a 400 naming them', async () => {
    const { search } = await setup([]);
    const message = async (input: Record<string, unknown>) =>
      (await search({ query: '*', ...input })).errors?.map((e) => [e.message, e.extensions.code]);
    expect(await message({ count: 1_001 })).toEqual([[`'count' must be an integer from 0 to 1000`, 400]]);
    expect(await message({ start: -1 })).toEqual([[`'start' must be an integer of at least 0`, 400]]);
    expect(await message({ filters: [{ field: 'colour', values: ['x'] }] })).toEqual([
      [expect.stringMatching(/^Unknown filter field colour/), 400],
    ]);
  });
});
