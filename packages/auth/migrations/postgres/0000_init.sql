-- The tables of migrations/sqlite/0000_init.sql. Text compares and sorts bytewise (COLLATE "C"), as on SQLite,
-- whatever the locale of the database; times are milliseconds since the epoch (bigint).
CREATE TABLE "access_tokens" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"actor_urn" text COLLATE "C" NOT NULL,
	"owner_urn" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint
);
--> statement-breakpoint
CREATE INDEX "access_tokens_owner_urn" ON "access_tokens" ("owner_urn");--> statement-breakpoint
CREATE INDEX "access_tokens_actor_urn" ON "access_tokens" ("actor_urn");--> statement-breakpoint
CREATE TABLE "users" (
	"actor_urn" text COLLATE "C" PRIMARY KEY NOT NULL,
	"role_urn" text COLLATE "C",
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
-- The root user is an Admin from the start (spec 3), so a fresh install has someone who can assign roles.
INSERT INTO "users" ("actor_urn", "role_urn", "created_at") VALUES ('urn:li:corpuser:datahub', 'urn:li:dataHubRole:Admin', (extract(epoch FROM now()) * 1000)::bigint);
