CREATE TABLE `tags` (
	`id` text PRIMARY KEY NOT NULL,
	`doc_id` integer NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`color_hex` text,
	`created_at` integer NOT NULL,
	`created_by` text NOT NULL,
	`updated_at` integer NOT NULL,
	`updated_by` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_doc_id_unique` ON `tags` (`doc_id`);--> statement-breakpoint
CREATE INDEX `tags_name_order` ON `tags` ("name" COLLATE NOCASE,`id`);