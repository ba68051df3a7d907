-- The text and search-word indexes also hold the attribute terms, so a storefront word combined
-- with an attribute filter is one index scan intersecting their posting lists instead of two
-- bitmaps of every listing holding either. Each serves attribute filters alone, as the index they
-- replace did. Built before the old ones go, so no statement finds none.
CREATE INDEX "listings_text_attributeTerms_idx" ON "listings" USING gin (("title" || E'\n' || "description") gin_trgm_ops,"attributeTerms");--> statement-breakpoint
CREATE INDEX "listings_searchWords_attributeTerms_idx" ON "listings" USING gin ("searchWords","attributeTerms");--> statement-breakpoint
DROP INDEX "listings_text_trgm_idx";--> statement-breakpoint
DROP INDEX "listings_attributeTerms_idx";--> statement-breakpoint
DROP INDEX "listings_searchWords_idx";
