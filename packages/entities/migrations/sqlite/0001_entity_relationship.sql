CREATE TABLE `entity_relationship` (
	`source` varchar(500) NOT NULL,
	`aspect` varchar(200) NOT NULL,
	`type` varchar(100) NOT NULL,
	`destination` varchar(500) NOT NULL,
	PRIMARY KEY (`source`, `aspect`, `type`, `destination`)
);
--> statement-breakpoint
CREATE INDEX `entity_relationship_destination` ON `entity_relationship` (`destination`, `type`);
