-- One search index for the storefront. Each listing stores a full-text document of everything the
-- storefront finds it by, and one GIN index over the available listings' documents (with their
-- creation time and price) serves words, word beginnings, attribute filters, amenities and the
-- category. It replaces the search postings, the other words, the price bands and the trigram,
-- word and amenity indexes of the listings, each of which served one shape of query.

-- The postings (0019) and the price bands (0022), with what keeps and rebuilds them.
DROP TRIGGER listing_search_postings_on_insert_or_delete ON listings;--> statement-breakpoint
DROP TRIGGER listing_search_postings_on_update ON listings;--> statement-breakpoint
DROP TRIGGER listing_price_band_totals_on_insert_or_delete ON listings;--> statement-breakpoint
DROP TRIGGER listing_price_band_totals_on_update ON listings;--> statement-breakpoint
DROP FUNCTION listing_search_postings_track();--> statement-breakpoint
DROP FUNCTION search_postings_rebuild();--> statement-breakpoint
DROP FUNCTION listing_price_band_totals_track();--> statement-breakpoint
DROP FUNCTION listing_price_band_totals_rebuild();--> statement-breakpoint
DROP TABLE "listing_price_band_totals";--> statement-breakpoint
DROP TABLE "search_other_words";--> statement-breakpoint
DROP TABLE "search_postings";--> statement-breakpoint
DROP INDEX "listings_text_attributeTerms_categoryId_idx";--> statement-breakpoint
DROP INDEX "listings_searchWords_attributeTerms_categoryId_idx";--> statement-breakpoint
DROP INDEX "listings_title_trgm_idx";--> statement-breakpoint
DROP INDEX "listings_available_priceBand_createdAt_idx";--> statement-breakpoint
DROP INDEX "listings_available_amenities_idx";--> statement-breakpoint
DROP INDEX "listings_available_categoryId_priceBand_createdAt_idx";--> statement-breakpoint
DROP FUNCTION listing_posted_keys(text[], text[]);--> statement-breakpoint
DROP FUNCTION listing_other_word_text(text, text, text[]);--> statement-breakpoint
DROP FUNCTION listing_price_band(numeric);--> statement-breakpoint
DROP FUNCTION listing_price_band_bounds();
--> statement-breakpoint
-- A term of the document: a marker and the term itself, or, past 200 bytes (no one types a longer
-- one, and a lexeme holds at most 2 kB), a digest of it, which a filter naming it computes alike.
CREATE FUNCTION listing_search_key(marker text, term text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$
  SELECT CASE WHEN octet_length(term) <= 200 THEN marker || term ELSE marker || '#' || md5(term) END
$$;
--> statement-breakpoint
-- A listing's search document, without positions (no phrase is searched):
-- - every word of its title, attribute values and description, as PostgreSQL's `simple`
--   configuration splits and lower-cases them (`SM-A546E` gives `sm-a546e`, `sm` and `a546e`);
-- - each word of its title, brand and model again, marked `t:`;
-- - each attribute as `a:name=value` (lower-cased, as listing_attribute_term_list() writes it);
-- - each amenity as `m:name` (listing_amenities());
-- - its category as `c:<id>`.
-- The parser never puts a colon in a word, so the marked terms never meet a word.
CREATE FUNCTION listing_search_document(title text, description text, attributes jsonb, category_id uuid) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  attribute_text text;
  attribute_keys text[];
BEGIN
  SELECT string_agg(value, ' ') FILTER (WHERE jsonb_typeof(attributes -> key) IN ('string', 'number')),
    array_agg(listing_search_key('a:', lower(key) || '=' || lower(value)))
  INTO attribute_text, attribute_keys
  FROM jsonb_each_text(attributes);
  RETURN strip(to_tsvector('simple', concat_ws(' ', title, attribute_text, description)))
    || array_to_tsvector(array(
      SELECT 't:' || marked.lexeme
      FROM unnest(to_tsvector('simple', concat_ws(' ', title,
        CASE jsonb_typeof(attributes -> 'brand') WHEN 'string' THEN attributes ->> 'brand' END,
        CASE jsonb_typeof(attributes -> 'model') WHEN 'string' THEN attributes ->> 'model' END))) AS marked
      WHERE octet_length(marked.lexeme) <= 200))
    || array_to_tsvector(coalesce(attribute_keys, '{}'))
    || array_to_tsvector(array(
      SELECT listing_search_key('m:', amenity) FROM unnest(listing_amenities(attributes)) AS amenity WHERE amenity <> ''))
    || CASE WHEN category_id IS NULL THEN ''::tsvector ELSE array_to_tsvector(array['c:' || category_id]) END;
END
$$;
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "searchDocument" tsvector GENERATED ALWAYS AS (listing_search_document("listings"."title", "listings"."description", "listings"."attributes", "listings"."categoryId")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "listings_available_searchDocument_idx" ON "listings" USING gin ("searchDocument","createdAt","price") WHERE "listings"."status" = 'AVAILABLE' and "listings"."deletedAt" is null;
--> statement-breakpoint
-- What an available listing adds to search_terms: its title, brand and model whole; the words of
-- its title, brand and model (`word`); every word of its document (`text`).
CREATE OR REPLACE FUNCTION listing_search_terms(listing listings)
RETURNS TABLE (kind text, term text, text text)
LANGUAGE sql STABLE
AS $$
  SELECT offered.kind, lower(offered.text), offered.text
  FROM (VALUES
    ('title', listing.title),
    ('brand', CASE jsonb_typeof(listing.attributes -> 'brand') WHEN 'string' THEN listing.attributes ->> 'brand' END),
    ('model', CASE jsonb_typeof(listing.attributes -> 'model') WHEN 'string' THEN listing.attributes ->> 'model' END)
  ) AS offered (kind, text)
  WHERE listing.status = 'AVAILABLE'
    AND btrim(offered.text) <> ''
    AND octet_length(offered.text) <= 200
  UNION ALL
  SELECT word.kind, word.term, word.term
  FROM unnest(tsvector_to_array(listing."searchDocument")) AS lexeme,
    LATERAL (SELECT CASE WHEN lexeme LIKE 't:%' THEN 'word' ELSE 'text' END AS kind,
      CASE WHEN lexeme LIKE 't:%' THEN substr(lexeme, 3) ELSE lexeme END AS term) AS word
  WHERE listing.status = 'AVAILABLE'
    AND lexeme !~ '^[acm]:'
    AND octet_length(word.term) <= 100
$$;
--> statement-breakpoint
ALTER TABLE "listings" DROP COLUMN "attributeTerms";--> statement-breakpoint
ALTER TABLE "listings" DROP COLUMN "searchWords";--> statement-breakpoint
DROP FUNCTION listing_search_word_list(text, jsonb);
--> statement-breakpoint
-- Words are kept "C"-collated: the words a query word begins are then one range of the key.
DROP INDEX "search_terms_word_trgm_idx";--> statement-breakpoint
DROP INDEX "search_terms_suggestion_trgm_idx";--> statement-breakpoint
DELETE FROM search_terms;--> statement-breakpoint
ALTER TABLE "search_terms" ALTER COLUMN "term" SET DATA TYPE text COLLATE "C";--> statement-breakpoint
-- A misspelt word is corrected against the words of titles, brands and models, and the words at
-- least 100 available listings hold (`common`): the nearest among every word a catalogue's
-- descriptions use (350,000 at a million listings) cost a quarter of a second to find. The index
-- names `common`, not the count, so a count that changes leaves its row's indexes alone (a heap-only
-- update) unless it crosses 100; room is left on each page for those updates.
ALTER TABLE "search_terms" ADD COLUMN "common" boolean GENERATED ALWAYS AS ("search_terms"."listings" >= 100) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "search_terms" SET (fillfactor = 70);--> statement-breakpoint
SELECT search_terms_rebuild();--> statement-breakpoint
CREATE INDEX "search_terms_common_trgm_idx" ON "search_terms" USING gist ("term" gist_trgm_ops) WHERE "search_terms"."kind" = 'text' and "search_terms"."common";--> statement-breakpoint
CREATE INDEX "search_terms_word_trgm_idx" ON "search_terms" USING gist ("term" gist_trgm_ops) WHERE "search_terms"."kind" = 'word';--> statement-breakpoint
CREATE INDEX "search_terms_suggestion_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops) WHERE "search_terms"."kind" in ('title', 'brand', 'model');
--> statement-breakpoint
-- The statistics trigger of 0028 now also follows the description, whose words the search terms count.
DROP TRIGGER listing_statistics_on_update ON listings;
--> statement-breakpoint
CREATE TRIGGER listing_statistics_on_update
AFTER UPDATE OF title, description, "categoryId", status, price, "stockQuantity", attributes, "commissionPercent", "agentId", "deletedAt" ON listings
FOR EACH ROW
WHEN ((OLD.title, OLD.description, OLD."categoryId", OLD.status, OLD.price, OLD."stockQuantity", OLD.attributes, OLD."commissionPercent", OLD."agentId", OLD."deletedAt" IS NULL)
  IS DISTINCT FROM (NEW.title, NEW.description, NEW."categoryId", NEW.status, NEW.price, NEW."stockQuantity", NEW.attributes, NEW."commissionPercent", NEW."agentId", NEW."deletedAt" IS NULL))
EXECUTE FUNCTION listing_statistics_track();
