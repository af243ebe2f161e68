CREATE TABLE `access_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`description` text,
	`actor_urn` text NOT NULL,
	`owner_urn` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer
);
--> statement-breakpoint
CREATE INDEX `access_tokens_owner_urn` ON `access_tokens` (`owner_urn`);--> statement-breakpoint
CREATE INDEX `access_tokens_actor_urn` ON `access_tokens` (`actor_urn`);--> statement-breakpoint
CREATE TABLE `users` (
	`actor_urn` text PRIMARY KEY NOT NULL,
	`role_urn` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
-- The root user is an Admin from the start (spec 3), so a fresh install has someone who can assign roles.
INSERT INTO `users` (`actor_urn`, `role_urn`, `created_at`) VALUES ('urn:li:corpuser:datahub', 'urn:li:dataHubRole:Admin', CAST(strftime('%s', 'now') AS INTEGER) * 1000);
