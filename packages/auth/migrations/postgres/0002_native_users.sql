CREATE TABLE "invite_tokens" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"encrypted_token" text NOT NULL,
	"role_urn" text COLLATE "C",
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "native_credentials" (
	"actor_urn" text COLLATE "C" PRIMARY KEY NOT NULL,
	"password_hash" text NOT NULL,
	"reset_token_hash" text,
	"reset_token_expires_at" bigint,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_tokens" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"actor_urn" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "invite_tokens_role_urn" ON "invite_tokens" USING btree ("role_urn");--> statement-breakpoint
CREATE INDEX "session_tokens_actor_urn" ON "session_tokens" USING btree ("actor_urn");