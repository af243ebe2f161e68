CREATE TABLE `invite_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`encrypted_token` text NOT NULL,
	`role_urn` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `invite_tokens_role_urn` ON `invite_tokens` (`role_urn`);--> statement-breakpoint
CREATE TABLE `native_credentials` (
	`actor_urn` text PRIMARY KEY NOT NULL,
	`password_hash` text NOT NULL,
	`reset_token_hash` text,
	`reset_token_expires_at` integer,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `session_tokens` (
	`id` text PRIMARY KEY NOT NULL,
	`actor_urn` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `session_tokens_actor_urn` ON `session_tokens` (`actor_urn`);