-- Text compares and sorts bytewise (COLLATE "C"), as on SQLite, whatever the locale of the database; `text`, not
-- varchar(n), since SQLite does not enforce lengths either.
CREATE TABLE "search_document" (
	"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"urn" text COLLATE "C" NOT NULL,
	"entity_type" text COLLATE "C" NOT NULL,
	"removed" integer NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"description" text COLLATE "C" NOT NULL,
	"platform" text COLLATE "C",
	"origin" text COLLATE "C",
	"browse_paths" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "search_document_urn" ON "search_document" ("urn");
--> statement-breakpoint
CREATE INDEX "search_document_type_urn" ON "search_document" ("entity_type", "removed", "urn");
--> statement-breakpoint
CREATE INDEX "search_document_type_facets" ON "search_document" ("entity_type", "removed", "platform", "origin");
--> statement-breakpoint
CREATE TABLE "search_value" (
	"vid" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"field" text COLLATE "C" NOT NULL,
	"value" text COLLATE "C" NOT NULL
);
--> statement-breakpoint
-- Unique by md5: a B-tree entry cannot hold a value of several kilobytes (a long custom property).
CREATE UNIQUE INDEX "search_value_field_value" ON "search_value" ("field", md5("value"));
--> statement-breakpoint
CREATE TABLE "search_term" (
	"id" bigint NOT NULL,
	"vid" bigint NOT NULL,
	PRIMARY KEY ("id", "vid")
);
--> statement-breakpoint
CREATE INDEX "search_term_vid" ON "search_term" ("vid", "id");
--> statement-breakpoint
-- The tokens of name (weight A), description (B) and the rest (C), made as SQLite's FTS5 makes them.
CREATE TABLE "search_text" (
	"id" bigint PRIMARY KEY,
	"words" tsvector NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_text_words" ON "search_text" USING gin ("words");
