-- The declaring entity becomes part of the edge's key; an edge its source declared itself is owned by its source.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_entity_relationship` (
	`source` text(500) NOT NULL,
	`aspect` text(200) NOT NULL,
	`type` text(100) NOT NULL,
	`destination` text(500) NOT NULL,
	`createdon` integer,
	`createdactor` text(500),
	`updatedon` integer,
	`updatedactor` text(500),
	`manual` integer,
	`lifecycleowner` text(500) NOT NULL,
	PRIMARY KEY(`source`, `aspect`, `type`, `destination`, `lifecycleowner`)
);
--> statement-breakpoint
INSERT INTO `__new_entity_relationship`("source", "aspect", "type", "destination", "createdon", "createdactor", "updatedon", "updatedactor", "manual", "lifecycleowner") SELECT "source", "aspect", "type", "destination", "createdon", "createdactor", "updatedon", "updatedactor", "manual", coalesce("lifecycleowner", "source") FROM `entity_relationship`;--> statement-breakpoint
DROP TABLE `entity_relationship`;--> statement-breakpoint
ALTER TABLE `__new_entity_relationship` RENAME TO `entity_relationship`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `entity_relationship_destination` ON `entity_relationship` (`destination`,`type`);--> statement-breakpoint
CREATE INDEX `entity_relationship_lifecycleowner` ON `entity_relationship` (`lifecycleowner`,`aspect`);