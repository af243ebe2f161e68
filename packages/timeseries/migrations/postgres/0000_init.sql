-- The time-series store on PostgreSQL (src/postgres/). Its bookkeeping tables only: each index's documents live in a
-- table of their own, created at run time when the index is first written or truncated (src/postgres/sql.ts).
-- Text that is compared or sorted is COLLATE "C" (bytewise, whatever the database's locale).

-- Small settings shared by every replica: the node id that prefixes task ids.
CREATE TABLE "timeseries_meta" (
	"key" text COLLATE "C" PRIMARY KEY,
	"value" text NOT NULL
);
--> statement-breakpoint
-- One row per index. Its documents are in `table_name` (numbered, `timeseries_t<n>`: an index name with its prefix
-- may pass PostgreSQL's 63-byte limit on names). While a reindex copies, `copy_table` is the copy that every write
-- and deletion of a row newer than `copy_after` is mirrored into; the swap points `table_name` at the copy.
CREATE TABLE "timeseries_indices" (
	"id" integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"name" text COLLATE "C" NOT NULL UNIQUE,
	"table_name" text NOT NULL,
	"copy_table" text,
	"copy_after" bigint
);
--> statement-breakpoint
CREATE SEQUENCE "timeseries_table_number";
--> statement-breakpoint
-- Truncation tasks of every replica. Times are milliseconds of the database's clock (one clock for all replicas).
-- `owner` names the store instance (replica process) running a task; it refreshes `heartbeat_at` every few seconds,
-- and a running task whose heartbeat is too old is marked failed by whichever replica looks at it. `scratch_table`
-- is a table of the task's to drop once it no longer runs: the half-built copy of a reindex that failed, or the
-- table a reindex swapped out.
CREATE TABLE "timeseries_tasks" (
	"id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	"index_name" text COLLATE "C" NOT NULL,
	"mode" text NOT NULL CHECK ("mode" IN ('delete', 'reindex')),
	"end_time_millis" bigint NOT NULL,
	"batch_size" integer NOT NULL,
	"rows_per_second" integer,
	"state" text NOT NULL CHECK ("state" IN ('running', 'completed', 'failed')),
	"total" bigint DEFAULT 0 NOT NULL,
	"deleted" bigint DEFAULT 0 NOT NULL,
	"created" bigint DEFAULT 0 NOT NULL,
	"batches" integer DEFAULT 0 NOT NULL,
	"started_at" bigint NOT NULL,
	"heartbeat_at" bigint NOT NULL,
	"finished_at" bigint,
	"error" text,
	"owner" text NOT NULL,
	"scratch_table" text
);
--> statement-breakpoint
-- At most one running truncation per index, whichever replica started it.
CREATE UNIQUE INDEX "timeseries_tasks_running" ON "timeseries_tasks" ("index_name") WHERE "state" = 'running';
