-- The storefront's attribute filters test listing_attribute_terms(attributes) @> ..., which the
-- planner otherwise guesses matches 1% of the rows (the only statistics on the expression belong
-- to a partial index, which it ignores). With real statistics it reads the newest-first index and
-- stops after a page, and a filter that matches nothing is answered from the GIN index.
CREATE STATISTICS listings_attribute_terms_stats ON (listing_attribute_terms(attributes)) FROM listings;
--> statement-breakpoint
-- A storefront page reads a few hundred rows in index order; starting parallel workers for it
-- cost more (~16 ms) than the whole serial scan.
ALTER TABLE listings SET (parallel_workers = 0);
--> statement-breakpoint
ANALYZE listings;
