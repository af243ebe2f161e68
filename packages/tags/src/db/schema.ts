import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * One row per tag. The id is the primary key, so the database alone decides which of concurrent creates wins.
 * `doc_id` is the FTS5 rowid (see the `fts` migration): an explicit integer column because the implicit rowid of a
 * table keyed by text may be renumbered by VACUUM, which would silently detach the full-text index.
 */
export const tags = sqliteTable(
  'tags',
  {
    id: text('id').primaryKey(),
    docId: integer('doc_id').notNull().unique(),
    name: text('name').notNull(),
    description: text('description'),
    colorHex: text('color_hex'),
    createdAt: integer('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    updatedAt: integer('updated_at').notNull(),
    updatedBy: text('updated_by').notNull(),
  },
  // Serves the `*` listing's order (name, case-insensitively, then id) without sorting the whole table.
  (t) => [index('tags_name_order').on(sql`${t.name} COLLATE NOCASE`, t.id)],
);
