CREATE TABLE "search_facet_field" (
	"field" text COLLATE "C" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_facet" (
	"id" bigint NOT NULL,
	"vid" bigint NOT NULL,
	CONSTRAINT "search_facet_pkey" PRIMARY KEY("id","vid")
);
