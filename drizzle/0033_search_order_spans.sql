-- The storefront's two order keys as terms of the search document, in nested spans, so that a
-- window of the newest, cheapest or dearest listings is a handful of terms the index intersects
-- with a query's words. The index held creation time and price as btree_gin columns instead: a
-- range of them is gathered entry by entry, and as nearly every listing has a creation time and a
-- price of its own, a window of 40,000 listings cost 40,000 entries before any word was read.
-- The document is recomputed for every listing, so the column is added again; its index is built
-- with room to sort.
SELECT set_config('maintenance_work_mem', '256MB', true);--> statement-breakpoint
DROP INDEX "listings_available_searchDocument_idx";--> statement-breakpoint
ALTER TABLE "listings" DROP COLUMN "searchDocument";--> statement-breakpoint
-- The spans holding a listing's creation day and its price:
-- - `d:<level>:<span>`: the creation day, counted in whole days since 1970-01-01 UTC, in spans of
--   4^level days for levels 0 to 4 (1, 4, 16, 64 and 256 days), numbered from that day as
--   `day >> (2 * level)`;
-- - `v:<digits>`, `v:<digits>:<first digit>`, `v:<digits>:<first two digits>`: the whole part of
--   the price by its number of digits, then its leading digits (1250.50 gives `v:4`, `v:4:1` and
--   `v:4:12`; 7 gives `v:1` and `v:1:7`).
-- lib/search/order-spans.ts covers a range of days or prices with the same spans.
CREATE FUNCTION listing_order_terms(created_at timestamptz, price numeric) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT array_to_tsvector(array(
    SELECT format('d:%s:%s', level, created.day >> (2 * level))
    FROM (SELECT floor(extract(epoch FROM created_at) / 86400)::integer AS day) AS created, generate_series(0, 4) AS level
    UNION ALL
    SELECT 'v:' || length(priced.whole) || spans.suffix
    FROM (SELECT floor(greatest(price, 0))::bigint::text AS whole) AS priced,
      LATERAL (VALUES (''), (':' || left(priced.whole, 1)), (':' || left(priced.whole, 2))) AS spans (suffix)))
$$;
--> statement-breakpoint
-- The search document of migration 0032, with the spans of the listing's creation day and price.
CREATE FUNCTION listing_search_document(title text, description text, attributes jsonb, category_id uuid, created_at timestamptz, price numeric) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT listing_search_document(title, description, attributes, category_id) || listing_order_terms(created_at, price)
$$;
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "searchDocument" tsvector GENERATED ALWAYS AS (listing_search_document("listings"."title", "listings"."description", "listings"."attributes", "listings"."categoryId", "listings"."createdAt", "listings"."price")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "listings_available_searchDocument_idx" ON "listings" USING gin ("searchDocument") WHERE "listings"."status" = 'AVAILABLE' and "listings"."deletedAt" is null;
--> statement-breakpoint
-- The search terms count words, never the marked terms: the spans are left out as well.
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
    AND lexeme !~ '^[acdmpv]:'
    AND octet_length(word.term) <= 100
$$;
