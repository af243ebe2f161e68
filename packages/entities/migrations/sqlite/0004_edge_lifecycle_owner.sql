ALTER TABLE `entity_relationship` ADD `lifecycleowner` text(500);--> statement-breakpoint
CREATE INDEX `entity_relationship_lifecycleowner` ON `entity_relationship` (`lifecycleowner`,`aspect`);