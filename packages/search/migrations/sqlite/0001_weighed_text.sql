CREATE VIRTUAL TABLE `search_text_weighed` USING fts5(`name`, `description`, `text`, `top`, `high`, `low`, tokenize = 'unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `search_text_weighed` (`rowid`, `name`, `description`, `text`, `top`, `high`, `low`) SELECT `rowid`, `name`, `description`, `text`, '', '', '' FROM `search_text`;
--> statement-breakpoint
DROP TABLE `search_text`;
--> statement-breakpoint
ALTER TABLE `search_text_weighed` RENAME TO `search_text`;
