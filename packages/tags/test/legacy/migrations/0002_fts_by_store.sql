-- The store keeps tags_fts in step itself, with plain single-row statements, instead of these triggers. A trigger (like
-- RETURNING, which SQLite runs as one) makes a statement open a statement journal, and at each one FTS5 writes its
-- pending index to disk: one segment per tag, merged later. That made creating tags in a batch two to three times dearer.
DROP TRIGGER IF EXISTS `tags_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `tags_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `tags_fts_after_update`;
