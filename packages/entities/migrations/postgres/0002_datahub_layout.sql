-- metadata_aspect_v2 in DataHub's own layout (docker/postgres-setup/init.sql at DataHub's commit c731e725ff42): createdon
-- a timestamp (UTC), the key named pk_metadata_aspect_v2, the index timeindex on createdon, the keys in the database's
-- own collation. A database mds created before gets there with its rows kept (createdon's milliseconds become the same
-- moment); one restored from a DataHub deployment is in it already, and each step below leaves it as it is.
DO $$
BEGIN
	IF (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
	     WHERE a.attrelid = 'metadata_aspect_v2'::regclass AND a.attname = 'createdon') = 'bigint' THEN
		ALTER TABLE "metadata_aspect_v2" ALTER COLUMN "createdon" SET DATA TYPE timestamp
			USING TIMESTAMP '1970-01-01 00:00:00' + "createdon" * INTERVAL '1 millisecond';
	END IF;
	IF EXISTS (SELECT 1 FROM pg_attribute a JOIN pg_collation c ON c.oid = a.attcollation
	            WHERE a.attrelid = 'metadata_aspect_v2'::regclass AND a.attname IN ('urn', 'aspect') AND c.collname = 'C') THEN
		ALTER TABLE "metadata_aspect_v2"
			ALTER COLUMN "urn" SET DATA TYPE varchar(500) COLLATE "default",
			ALTER COLUMN "aspect" SET DATA TYPE varchar(200) COLLATE "default";
	END IF;
	IF EXISTS (SELECT 1 FROM pg_constraint WHERE conrelid = 'metadata_aspect_v2'::regclass AND conname = 'metadata_aspect_v2_pkey') THEN
		ALTER TABLE "metadata_aspect_v2" RENAME CONSTRAINT "metadata_aspect_v2_pkey" TO "pk_metadata_aspect_v2";
	END IF;
END $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "timeindex" ON "metadata_aspect_v2" USING btree ("createdon");
