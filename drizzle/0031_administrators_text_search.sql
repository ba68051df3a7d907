-- The administrators' and agents' search is a substring of a listing's title and description over
-- every status, which the storefront's search index (available listings, whole words) does not
-- serve: without this index a rare substring read the whole table at a million listings (4-9 s).
CREATE INDEX "listings_text_trgm_idx" ON "listings" USING gin (("title" || E'\n' || "description") gin_trgm_ops);
