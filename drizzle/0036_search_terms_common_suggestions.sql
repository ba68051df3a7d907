-- Suggestions complete a word of a title, brand or model that starts with what the shopper typed,
-- the first word or a later one: `' ' || term` holds a space and that beginning, one pattern per
-- beginning that the trigram index serves, where `term like 'gal%' or term like '% gal%'` took two,
-- and the first of them could be read through the primary key instead, every title it begins.
-- They are read first among the titles, brands and models at least 100 available listings carry
-- (`common`): a beginning that tens of thousands of titles hold (`gal`, every Galaxy) finds its
-- most carried completions among a few hundred. That index is small, and as it names `common`,
-- not the count, a count that changes stays a heap-only update. (This migration's snapshot also
-- records the search document and its index as migration 0033 made them.)
DROP INDEX "search_terms_suggestion_trgm_idx";--> statement-breakpoint
CREATE INDEX "search_terms_suggestion_trgm_idx" ON "search_terms" USING gin ((' ' || "term") gin_trgm_ops) WHERE "search_terms"."kind" in ('title', 'brand', 'model');--> statement-breakpoint
CREATE INDEX "search_terms_common_suggestion_trgm_idx" ON "search_terms" USING gin ((' ' || "term") gin_trgm_ops) WHERE "search_terms"."kind" in ('title', 'brand', 'model') and "search_terms"."common";
