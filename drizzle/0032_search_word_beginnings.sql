-- Word beginnings as terms of the search document: each word but a number adds its beginnings of
-- 3, 4 and 5 characters that are shorter than itself, marked `p:` (`galaxy` adds `p:gal`,
-- `p:gala` and `p:galax`). A search word of up to 5 characters then matches as a beginning through
-- one term of the index, instead of as the hundreds of words it begins (`new` begins 157 words of a
-- real catalogue, `pro` 2,655), each of which the index must follow for every listing it reads.
-- The document is recomputed for every listing, so the column is added again with the new function;
-- its index is built with room to sort (a million listings' index in the default 64 MB spills to
-- disk over and over).
SELECT set_config('maintenance_work_mem', '256MB', true);--> statement-breakpoint
DROP INDEX "listings_available_searchDocument_idx";--> statement-breakpoint
ALTER TABLE "listings" DROP COLUMN "searchDocument";--> statement-breakpoint
-- A listing's search document, without positions (no phrase is searched):
-- - every word of its title, attribute values and description, as PostgreSQL's `simple`
--   configuration splits and lower-cases them (`SM-A546E` gives `sm-a546e`, `sm` and `a546e`);
-- - the beginnings of 3 to 5 characters of each of those words, shorter than it, marked `p:`,
--   but for numbers (digits and the marks between them), which are never searched by their beginning;
-- - each word of its title, brand and model again, marked `t:`;
-- - each attribute as `a:name=value` (lower-cased, as listing_attribute_term_list() writes it);
-- - each amenity as `m:name` (listing_amenities());
-- - its category as `c:<id>`.
-- The parser never puts a colon in a word, so the marked terms never meet a word.
CREATE OR REPLACE FUNCTION listing_search_document(title text, description text, attributes jsonb, category_id uuid) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
  attribute_text text;
  attribute_keys text[];
  words tsvector;
BEGIN
  SELECT string_agg(value, ' ') FILTER (WHERE jsonb_typeof(attributes -> key) IN ('string', 'number')),
    array_agg(listing_search_key('a:', lower(key) || '=' || lower(value)))
  INTO attribute_text, attribute_keys
  FROM jsonb_each_text(attributes);
  words := strip(to_tsvector('simple', concat_ws(' ', title, attribute_text, description)));
  RETURN words
    || array_to_tsvector(array(
      SELECT 'p:' || left(word, length)
      FROM unnest(tsvector_to_array(words)) AS word, generate_series(3, least(5, char_length(word) - 1)) AS length
      WHERE word !~ '^[0-9.,/_+-]*$'))
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
-- The search terms count words, never the marked terms: the beginnings are left out as well.
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
    AND lexeme !~ '^[acmp]:'
    AND octet_length(word.term) <= 100
$$;
