-- The text and search-word indexes also hold the attribute terms and the category, so a storefront
-- word combined with an attribute or category filter is one index scan intersecting their posting
-- lists instead of bitmaps of every listing holding either. Each serves attribute filters alone,
-- as the index they replace did. A uuid column in a GIN index needs btree_gin. Built before the
-- old ones go, so no statement finds none.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
CREATE INDEX "listings_text_attributeTerms_categoryId_idx" ON "listings" USING gin (("title" || E'\n' || "description") gin_trgm_ops,"attributeTerms","categoryId");--> statement-breakpoint
CREATE INDEX "listings_searchWords_attributeTerms_categoryId_idx" ON "listings" USING gin ("searchWords","attributeTerms","categoryId");--> statement-breakpoint
DROP INDEX "listings_text_trgm_idx";--> statement-breakpoint
DROP INDEX "listings_attributeTerms_idx";--> statement-breakpoint
DROP INDEX "listings_searchWords_idx";
