CREATE TABLE `first_start` (
	`id` integer PRIMARY KEY NOT NULL,
	`claimed_at` integer NOT NULL
);
--> statement-breakpoint
-- A database already in use (tokens, other users, a changed root role) has had its first start: claimed here, so no
-- process prints a root token for it. A fresh one stays unclaimed until the first createAuth takes it.
INSERT INTO `first_start` (`id`, `claimed_at`)
SELECT 1, CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE EXISTS (SELECT 1 FROM `access_tokens`)
   OR EXISTS (SELECT 1 FROM `users` WHERE `actor_urn` <> 'urn:li:corpuser:datahub' OR `role_urn` IS NOT 'urn:li:dataHubRole:Admin');
