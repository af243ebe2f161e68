import { openSqliteDatabase } from '@mds/db';
import { createEntities } from '@mds/entities';
import { createTagService, createTags } from '@mds/tags';
import { Privilege } from '@mds/auth';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// Imported by package name alone, as another package or script would: no server, no GraphQL.
describe('@mds/tags as a library', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-tags-lib-'));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('creates a tag in a SQLite file and reads it back', async () => {
    const db = openSqliteDatabase(join(dir, 'library.db'));
    try {
      const entities = await createEntities({ db });
      const store = createTagService(entities, { now: () => 42 });
      const script = { urn: 'urn:li:corpuser:script', privileges: new Set<string>([Privilege.CREATE_TAGS]) };
      await store.create({ id: 'library', name: 'From a script', description: 'No server involved' }, script);
      expect(await store.get('urn:li:tag:library')).toEqual({
        urn: 'urn:li:tag:library',
        id: 'library',
        name: 'From a script',
        description: 'No server involved',
        colorHex: null,
        ownership: {
          owners: [{ owner: 'urn:li:corpuser:script', type: 'TECHNICAL_OWNER' }],
          lastModified: { time: 42, actor: 'urn:li:corpuser:script' },
        },
        created: { time: 42, actor: 'urn:li:corpuser:script' },
        lastModified: { time: 42, actor: 'urn:li:corpuser:script' },
      });
      expect((await store.search({ query: 'scri' })).hits.map((hit) => hit.tag.urn)).toEqual(['urn:li:tag:library']);
      // The module's service is the same kind of service, over the same entities.
      expect((await (await createTags({ entities })).service.get('urn:li:tag:library'))?.name).toBe('From a script');
    } finally {
      await db.close();
    }
  });
});
