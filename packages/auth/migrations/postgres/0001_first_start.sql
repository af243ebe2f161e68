-- As migrations/sqlite/0001_first_start.sql: the claim of the database's first start, taken by one atomic insert.
CREATE TABLE "first_start" (
	"id" integer PRIMARY KEY NOT NULL,
	"claimed_at" bigint NOT NULL
);
--> statement-breakpoint
-- A database already in use (tokens, other users, a changed root role) has had its first start: claimed here, so no
-- replica prints a root token for it. A fresh one stays unclaimed until the first createAuth takes it.
INSERT INTO "first_start" ("id", "claimed_at")
SELECT 1, (extract(epoch FROM now()) * 1000)::bigint
WHERE EXISTS (SELECT 1 FROM "access_tokens")
   OR EXISTS (SELECT 1 FROM "users" WHERE "actor_urn" <> 'urn:li:corpuser:datahub' OR "role_urn" IS DISTINCT FROM 'urn:li:dataHubRole:Admin');
