ALTER TABLE "entity_relationship" ADD COLUMN "createdon" bigint;--> statement-breakpoint
ALTER TABLE "entity_relationship" ADD COLUMN "createdactor" varchar(500);--> statement-breakpoint
ALTER TABLE "entity_relationship" ADD COLUMN "updatedon" bigint;--> statement-breakpoint
ALTER TABLE "entity_relationship" ADD COLUMN "updatedactor" varchar(500);--> statement-breakpoint
ALTER TABLE "entity_relationship" ADD COLUMN "manual" boolean;