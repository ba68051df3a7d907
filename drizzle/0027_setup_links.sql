CREATE TABLE "setup_links" (
	"tokenHash" text PRIMARY KEY NOT NULL,
	"expiresAt" timestamp (3) with time zone NOT NULL
);
