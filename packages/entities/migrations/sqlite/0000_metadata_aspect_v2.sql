CREATE TABLE `metadata_aspect_v2` (
	`urn` varchar(500) NOT NULL,
	`aspect` varchar(200) NOT NULL,
	`version` bigint NOT NULL,
	`metadata` text NOT NULL,
	`systemmetadata` text,
	`createdon` bigint NOT NULL,
	`createdby` varchar(255) NOT NULL,
	`createdfor` varchar(255),
	PRIMARY KEY (`urn`, `aspect`, `version`)
);
