-- The declaring entity becomes part of the edge's key; an edge its source declared itself is owned by its source.
UPDATE "entity_relationship" SET "lifecycleowner" = "source" WHERE "lifecycleowner" IS NULL;--> statement-breakpoint
ALTER TABLE "entity_relationship" ALTER COLUMN "lifecycleowner" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "entity_relationship" DROP CONSTRAINT "entity_relationship_pkey";
--> statement-breakpoint
ALTER TABLE "entity_relationship" ADD CONSTRAINT "entity_relationship_pkey" PRIMARY KEY("source","aspect","type","destination","lifecycleowner");