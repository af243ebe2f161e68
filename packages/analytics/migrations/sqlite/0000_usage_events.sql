CREATE TABLE `usage_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timestamp_millis` integer NOT NULL,
	`type` text NOT NULL,
	`actor_urn` text NOT NULL,
	`browser_id` text,
	`entity_type` text,
	`entity_urn` text,
	`query` text,
	`section` text,
	`action_type` text,
	`event` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_events_time` ON `usage_events` (`timestamp_millis`);--> statement-breakpoint
CREATE INDEX `usage_events_type_time` ON `usage_events` (`type`,`timestamp_millis`);