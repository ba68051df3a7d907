CREATE TABLE "photos" (
	"ref" text PRIMARY KEY NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"placeholder" text NOT NULL,
	"renditions" jsonb NOT NULL,
	"describedAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
