import { Privilege } from '@mds/auth';
import type { SqliteDatabase } from '@mds/db';
import { anyOf, SYSTEM_ACTOR, type Grant } from '@mds/entities';
import type { TagOwner } from './types';
import type { TagEntities } from './service';
import { tagUrn } from './urn';

interface LegacyRow {
  id: string;
  name: string;
  description: string | null;
  colorHex: string | null;
  createdAt: number;
  createdBy: string;
  updatedAt: number;
  updatedBy: string;
}

/** Tags written concurrently while moving: their transactions share commits (group commit) instead of one each. */
const TAGS_AT_ONCE = 200;

/**
 * Moves the tags an older mds kept in its own tables of `mds.db` (`tags`, `tags_fts`) into the aspect store, then
 * drops those tables. Each tag keeps its stamps: its entity is created by its creator at its creation time (with the
 * creator as technical owner, as createTag makes it), its `tagProperties` by its last editor at its last change.
 * Safe to run again after a crash half-way: a tag moved already is written unchanged. Answers how many tags moved.
 */
export async function moveLegacyTags(legacy: SqliteDatabase, entities: TagEntities): Promise<number> {
  const exists = legacy.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tags'`).get();
  if (!exists) return 0;
  const rows = legacy
    .prepare<[], LegacyRow>(
      `SELECT id, name, description, color_hex AS colorHex, created_at AS createdAt, created_by AS createdBy,
              updated_at AS updatedAt, updated_by AS updatedBy FROM tags ORDER BY id`,
    )
    .all();
  // The system moves them (an operator's upgrade), each write stamped as the tag's own history says.
  const grant = await entities.service.authorize(SYSTEM_ACTOR, anyOf(Privilege.MANAGE_TAGS));
  for (let i = 0; i < rows.length; i += TAGS_AT_ONCE)
    await Promise.all(rows.slice(i, i + TAGS_AT_ONCE).map((row) => moveTag(row, entities, grant)));
  legacy.transaction(() => {
    legacy.exec('DROP TABLE IF EXISTS tags_fts; DROP TABLE tags; DROP TABLE IF EXISTS __migrations_tags;');
  })();
  return rows.length;
}

async function moveTag(row: LegacyRow, { service }: TagEntities, grant: Grant): Promise<void> {
  const urn = tagUrn(row.id);
  const created = { time: row.createdAt, actor: row.createdBy };
  const owners: TagOwner[] = [{ owner: row.createdBy, type: 'TECHNICAL_OWNER' }];
  await service.write(grant, [{ urn, aspect: 'ownership', changeType: 'UPSERT', value: { owners, lastModified: created } }], created);
  const properties = {
    name: row.name,
    ...(row.description === null ? {} : { description: row.description }),
    ...(row.colorHex === null ? {} : { colorHex: row.colorHex }),
  };
  await service.write(grant, [{ urn, aspect: 'tagProperties', changeType: 'UPSERT', value: properties }], {
    time: row.updatedAt,
    actor: row.updatedBy,
  });
}
