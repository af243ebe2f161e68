CREATE TABLE `timeseries_outbox` (
	`id` text(64) PRIMARY KEY NOT NULL,
	`document` text NOT NULL,
	`createdon` integer NOT NULL
);
