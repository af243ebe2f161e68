-- Full-text index over tag names and descriptions. External content: the text lives once, in `tags`; the index is
-- keyed by tags.doc_id and kept in step by the triggers below, so every write path (including plain SQL) stays
-- searchable. unicode61 with diacritics removed makes "cafe" find "Café"; the prefix indexes make 2- and 3-letter
-- prefix queries (the common "type a few letters" case) index lookups instead of term scans.
CREATE VIRTUAL TABLE `tags_fts` USING fts5(
	name,
	description,
	content = 'tags',
	content_rowid = 'doc_id',
	tokenize = 'unicode61 remove_diacritics 2',
	prefix = '2 3'
);
--> statement-breakpoint
CREATE TRIGGER `tags_fts_after_insert` AFTER INSERT ON `tags` BEGIN
	INSERT INTO `tags_fts` (rowid, name, description) VALUES (new.doc_id, new.name, new.description);
END;
--> statement-breakpoint
CREATE TRIGGER `tags_fts_after_delete` AFTER DELETE ON `tags` BEGIN
	INSERT INTO `tags_fts` (`tags_fts`, rowid, name, description) VALUES ('delete', old.doc_id, old.name, old.description);
END;
--> statement-breakpoint
-- Only writes that touch indexed text re-index; colour and audit updates leave the index alone.
CREATE TRIGGER `tags_fts_after_update` AFTER UPDATE OF name, description ON `tags` BEGIN
	INSERT INTO `tags_fts` (`tags_fts`, rowid, name, description) VALUES ('delete', old.doc_id, old.name, old.description);
	INSERT INTO `tags_fts` (rowid, name, description) VALUES (new.doc_id, new.name, new.description);
END;
