CREATE TABLE "usage_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "usage_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"timestamp_millis" bigint NOT NULL,
	"type" text COLLATE "C" NOT NULL,
	"actor_urn" text COLLATE "C" NOT NULL,
	"browser_id" text COLLATE "C",
	"entity_type" text COLLATE "C",
	"entity_urn" text COLLATE "C",
	"query" text COLLATE "C",
	"section" text COLLATE "C",
	"action_type" text COLLATE "C",
	"event" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "usage_events_time" ON "usage_events" USING btree ("timestamp_millis");--> statement-breakpoint
CREATE INDEX "usage_events_type_time" ON "usage_events" USING btree ("type","timestamp_millis");