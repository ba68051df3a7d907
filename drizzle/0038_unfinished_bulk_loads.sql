-- A bulk load of listings (the seeder's) sets the listings' secondary indexes and statistics
-- trigger aside in a transaction of its own, then loads and rebuilds over several connections at
-- once, one core of the database each. The indexes it set aside are written here in that
-- transaction and the row deleted once everything is back: a load stopped in between is finished
-- by the next command or server start.
CREATE TABLE "unfinished_bulk_loads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"startedAt" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"indexes" jsonb NOT NULL
);
