CREATE TABLE `timeseries_index_versions` (
	`name` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `timeseries_meta` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `timeseries_tasks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`index_name` text NOT NULL,
	`mode` text NOT NULL,
	`end_time_millis` integer NOT NULL,
	`batch_size` integer NOT NULL,
	`rows_per_second` integer,
	`state` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`deleted` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`batches` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`heartbeat_at` integer NOT NULL,
	`finished_at` integer,
	`error` text,
	`owner_pid` integer NOT NULL,
	`owner_instance` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `timeseries_tasks_index_state` ON `timeseries_tasks` (`index_name`,`state`);