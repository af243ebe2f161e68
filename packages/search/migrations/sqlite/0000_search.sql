CREATE TABLE `search_document` (
	`id` integer PRIMARY KEY AUTOINCREMENT,
	`urn` varchar(500) NOT NULL,
	`entity_type` varchar(100) NOT NULL,
	`removed` integer NOT NULL,
	`name` text NOT NULL,
	`description` text NOT NULL,
	`platform` varchar(500),
	`origin` varchar(50),
	`browse_paths` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_document_urn` ON `search_document` (`urn`);
--> statement-breakpoint
CREATE INDEX `search_document_type_urn` ON `search_document` (`entity_type`, `removed`, `urn`);
--> statement-breakpoint
CREATE INDEX `search_document_type_facets` ON `search_document` (`entity_type`, `removed`, `platform`, `origin`);
--> statement-breakpoint
CREATE TABLE `search_value` (
	`vid` integer PRIMARY KEY AUTOINCREMENT,
	`field` varchar(50) NOT NULL,
	`value` varchar(500) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `search_value_field_value` ON `search_value` (`field`, `value`);
--> statement-breakpoint
CREATE TABLE `search_term` (
	`id` integer NOT NULL,
	`vid` integer NOT NULL,
	PRIMARY KEY (`id`, `vid`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `search_term_vid` ON `search_term` (`vid`, `id`);
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_text` USING fts5(`name`, `description`, `text`, tokenize = 'unicode61 remove_diacritics 2');
