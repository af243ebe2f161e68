-- Text compares and sorts bytewise (COLLATE "C"), as on SQLite, whatever the locale of the database.
-- IF NOT EXISTS: a database restored from a DataHub deployment already holds the table, in the layout 0002 gives it.
CREATE TABLE IF NOT EXISTS "metadata_aspect_v2" (
	"urn" varchar(500) COLLATE "C" NOT NULL,
	"aspect" varchar(200) COLLATE "C" NOT NULL,
	"version" bigint NOT NULL,
	"metadata" text NOT NULL,
	"systemmetadata" text,
	"createdon" bigint NOT NULL,
	"createdby" varchar(255) NOT NULL,
	"createdfor" varchar(255),
	PRIMARY KEY ("urn", "aspect", "version")
);
