CREATE TABLE "timeseries_outbox" (
	"id" varchar(64) COLLATE "C" PRIMARY KEY NOT NULL,
	"document" text NOT NULL,
	"createdon" bigint NOT NULL
);
