-- Text compares and sorts bytewise (COLLATE "C"), as on SQLite, whatever the locale of the database.
CREATE TABLE "entity_relationship" (
	"source" varchar(500) COLLATE "C" NOT NULL,
	"aspect" varchar(200) COLLATE "C" NOT NULL,
	"type" varchar(100) COLLATE "C" NOT NULL,
	"destination" varchar(500) COLLATE "C" NOT NULL,
	PRIMARY KEY ("source", "aspect", "type", "destination")
);
--> statement-breakpoint
CREATE INDEX "entity_relationship_destination" ON "entity_relationship" ("destination", "type");
