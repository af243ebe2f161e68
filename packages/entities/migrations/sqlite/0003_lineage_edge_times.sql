ALTER TABLE `entity_relationship` ADD `createdon` integer;--> statement-breakpoint
ALTER TABLE `entity_relationship` ADD `createdactor` text(500);--> statement-breakpoint
ALTER TABLE `entity_relationship` ADD `updatedon` integer;--> statement-breakpoint
ALTER TABLE `entity_relationship` ADD `updatedactor` text(500);--> statement-breakpoint
ALTER TABLE `entity_relationship` ADD `manual` integer;