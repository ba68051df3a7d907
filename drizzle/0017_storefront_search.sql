-- Storefront search: typo-tolerant words, relevance and suggestions. Each listing keeps the words
-- of its title, brand and model; the statistics trigger keeps the distinct words, titles, brands
-- and models of available listings with their counts, which a misspelt word is corrected against.

-- The distinct lower-cased words of a title, brand and model, split at spaces and punctuation.
-- Words over 50 bytes (no one types them) are left out.
CREATE FUNCTION listing_search_word_list(title text, attributes jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT coalesce(array_agg(DISTINCT word ORDER BY word), '{}')
  FROM regexp_split_to_table(
    lower(concat_ws(' ', title,
      CASE jsonb_typeof(attributes -> 'brand') WHEN 'string' THEN attributes ->> 'brand' END,
      CASE jsonb_typeof(attributes -> 'model') WHEN 'string' THEN attributes ->> 'model' END)),
    '[[:space:][:punct:]]+') AS word
  WHERE word <> '' AND octet_length(word) <= 50
$$;
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"kind" text NOT NULL,
	"term" text NOT NULL,
	"text" text NOT NULL,
	"listings" integer NOT NULL,
	CONSTRAINT "search_terms_kind_term_pk" PRIMARY KEY("kind","term")
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "searchWords" text[] GENERATED ALWAYS AS (listing_search_word_list("listings"."title", "listings"."attributes")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_terms_word_trgm_idx" ON "search_terms" USING gist ("term" gist_trgm_ops) WHERE "search_terms"."kind" = 'word';--> statement-breakpoint
CREATE INDEX "search_terms_suggestion_trgm_idx" ON "search_terms" USING gin ("term" gin_trgm_ops) WHERE "search_terms"."kind" <> 'word';--> statement-breakpoint
CREATE INDEX "listings_searchWords_idx" ON "listings" USING gin ("searchWords");--> statement-breakpoint
CREATE INDEX "listings_categoryId_status_price_idx" ON "listings" USING btree ("categoryId","status","price");
--> statement-breakpoint
-- What an available listing adds to search_terms: its words, and its title, brand and model whole.
CREATE FUNCTION listing_search_terms(listing listings)
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
  SELECT 'word', word, word
  FROM unnest(listing."searchWords") AS word
  WHERE listing.status = 'AVAILABLE'
$$;
--> statement-breakpoint
-- The trigger of 0016, also keeping search_terms, last in the same key order.
CREATE OR REPLACE FUNCTION listing_statistics_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  states listings[] := '{}';
  signs integer[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    states := states || OLD;
    signs := signs || -1;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    states := states || NEW;
    signs := signs || 1;
  END IF;

  INSERT INTO listing_totals AS total ("categoryId", status, listings, value, stock, commissioned, "commissionPercentSum", "commissionValue")
  SELECT (states[i])."categoryId", (states[i]).status, sum(signs[i]), sum(signs[i] * (states[i]).price), sum(signs[i] * (states[i])."stockQuantity"),
    coalesce(sum(signs[i]) FILTER (WHERE (states[i])."commissionPercent" IS NOT NULL), 0),
    coalesce(sum(signs[i] * (states[i])."commissionPercent"), 0),
    coalesce(sum(signs[i] * (states[i]).price * (states[i])."commissionPercent" / 100), 0)
  FROM generate_subscripts(signs, 1) AS i
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT ("categoryId", status) DO UPDATE
    SET listings = total.listings + excluded.listings,
        value = total.value + excluded.value,
        stock = total.stock + excluded.stock,
        commissioned = total.commissioned + excluded.commissioned,
        "commissionPercentSum" = total."commissionPercentSum" + excluded."commissionPercentSum",
        "commissionValue" = total."commissionValue" + excluded."commissionValue";

  INSERT INTO agent_listing_totals AS agent ("agentId", status, listings)
  SELECT (states[i])."agentId", (states[i]).status, sum(signs[i])
  FROM generate_subscripts(signs, 1) AS i
  WHERE (states[i])."agentId" IS NOT NULL
  GROUP BY 1, 2
  HAVING sum(signs[i]) <> 0
  ORDER BY 1, 2
  ON CONFLICT ("agentId", status) DO UPDATE
    SET listings = agent.listings + excluded.listings;

  INSERT INTO listing_attribute_values AS present ("categoryId", field, value, listings)
  SELECT (states[i])."categoryId", offered.field, offered.value, sum(signs[i])
  FROM generate_subscripts(signs, 1) AS i, listing_filter_values(states[i]) AS offered
  GROUP BY 1, 2, 3
  HAVING sum(signs[i]) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT ("categoryId", field, value) DO UPDATE
    SET listings = present.listings + excluded.listings;

  -- Values no available listing offers any more; their rows are already locked above.
  DELETE FROM listing_attribute_values AS present
  USING generate_subscripts(signs, 1) AS i, listing_filter_values(states[i]) AS offered
  WHERE signs[i] < 0
    AND present."categoryId" = (states[i])."categoryId"
    AND present.field = offered.field
    AND present.value = offered.value
    AND present.listings <= 0;

  INSERT INTO search_terms AS known (kind, term, text, listings)
  SELECT offered.kind, offered.term, min(offered.text), sum(signs[i])
  FROM generate_subscripts(signs, 1) AS i, listing_search_terms(states[i]) AS offered
  GROUP BY 1, 2
  HAVING sum(signs[i]) <> 0
  ORDER BY 1, 2
  ON CONFLICT (kind, term) DO UPDATE
    SET listings = known.listings + excluded.listings;

  DELETE FROM search_terms AS known
  USING generate_subscripts(signs, 1) AS i, listing_search_terms(states[i]) AS offered
  WHERE signs[i] < 0
    AND known.kind = offered.kind
    AND known.term = offered.term
    AND known.listings <= 0;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- A title change now changes what search knows of the listing.
DROP TRIGGER listing_statistics_on_update ON listings;
--> statement-breakpoint
CREATE TRIGGER listing_statistics_on_update
AFTER UPDATE OF title, "categoryId", status, price, "stockQuantity", attributes, "commissionPercent", "agentId" ON listings
FOR EACH ROW
WHEN ((OLD.title, OLD."categoryId", OLD.status, OLD.price, OLD."stockQuantity", OLD.attributes, OLD."commissionPercent", OLD."agentId")
  IS DISTINCT FROM (NEW.title, NEW."categoryId", NEW.status, NEW.price, NEW."stockQuantity", NEW.attributes, NEW."commissionPercent", NEW."agentId"))
EXECUTE FUNCTION listing_statistics_track();
--> statement-breakpoint
-- Recomputes search_terms from the available listings.
CREATE FUNCTION search_terms_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM search_terms;
  INSERT INTO search_terms (kind, term, text, listings)
  SELECT offered.kind, offered.term, min(offered.text), count(*)
  FROM listings AS listing, listing_search_terms(listing) AS offered
  WHERE listing.status = 'AVAILABLE'
  GROUP BY offered.kind, offered.term;
$$;
--> statement-breakpoint
-- Every kept total, as 0016's, and now search_terms.
CREATE OR REPLACE FUNCTION listing_statistics_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM listing_totals;
  INSERT INTO listing_totals ("categoryId", status, listings, value, stock, commissioned, "commissionPercentSum", "commissionValue")
  SELECT "categoryId", status, count(*), sum(price), sum("stockQuantity"),
    count("commissionPercent"), coalesce(sum("commissionPercent"), 0), coalesce(sum(price * "commissionPercent" / 100), 0)
  FROM listings
  GROUP BY "categoryId", status;
  DELETE FROM agent_listing_totals;
  INSERT INTO agent_listing_totals ("agentId", status, listings)
  SELECT "agentId", status, count(*)
  FROM listings
  WHERE "agentId" IS NOT NULL
  GROUP BY "agentId", status;
  DELETE FROM listing_attribute_values;
  INSERT INTO listing_attribute_values ("categoryId", field, value, listings)
  SELECT listing."categoryId", offered.field, offered.value, count(*)
  FROM listings AS listing, listing_filter_values(listing) AS offered
  WHERE listing.status = 'AVAILABLE'
  GROUP BY listing."categoryId", offered.field, offered.value;
  SELECT search_terms_rebuild();
$$;
--> statement-breakpoint
SELECT search_terms_rebuild();
--> statement-breakpoint
ANALYZE listings;
--> statement-breakpoint
ANALYZE search_terms;
