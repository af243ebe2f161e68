CREATE TABLE `search_facet_field` (
	`field` text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE `search_facet` (
	`id` integer NOT NULL,
	`vid` integer NOT NULL,
	PRIMARY KEY(`id`, `vid`)
) WITHOUT ROWID;
