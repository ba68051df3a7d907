-- The trash: a deleted listing keeps its row, with "deletedAt" set, until it is restored or removed
-- for good. Every kept total, count and search structure treats a trashed listing as absent: the
-- triggers take its contribution away when it is trashed and give it back when it is restored, so
-- every read of them is right as it is. Reads of the listings themselves leave trashed rows out.
CREATE TABLE "image_removals" (
	"ref" text PRIMARY KEY NOT NULL,
	"queuedAt" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "deletedAt" timestamp (3) with time zone;--> statement-breakpoint
CREATE INDEX "image_removals_queuedAt_idx" ON "image_removals" USING btree ("queuedAt");--> statement-breakpoint
CREATE INDEX "listings_trashed_deletedAt_idx" ON "listings" USING btree ("deletedAt" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "listings"."deletedAt" is not null;
--> statement-breakpoint
-- The trigger of 0017, counting a listing's state only while it is out of the trash.
CREATE OR REPLACE FUNCTION listing_statistics_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  states listings[] := '{}';
  signs integer[] := '{}';
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."deletedAt" IS NULL THEN
    states := states || OLD;
    signs := signs || -1;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW."deletedAt" IS NULL THEN
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
-- Moving to the trash and back changes what the totals count.
DROP TRIGGER listing_statistics_on_update ON listings;
--> statement-breakpoint
CREATE TRIGGER listing_statistics_on_update
AFTER UPDATE OF title, "categoryId", status, price, "stockQuantity", attributes, "commissionPercent", "agentId", "deletedAt" ON listings
FOR EACH ROW
WHEN ((OLD.title, OLD."categoryId", OLD.status, OLD.price, OLD."stockQuantity", OLD.attributes, OLD."commissionPercent", OLD."agentId", OLD."deletedAt" IS NULL)
  IS DISTINCT FROM (NEW.title, NEW."categoryId", NEW.status, NEW.price, NEW."stockQuantity", NEW.attributes, NEW."commissionPercent", NEW."agentId", NEW."deletedAt" IS NULL))
EXECUTE FUNCTION listing_statistics_track();
--> statement-breakpoint
-- The postings trigger of 0019: a listing is posted while it is available and out of the trash.
CREATE OR REPLACE FUNCTION listing_search_postings_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'AVAILABLE' AND OLD."deletedAt" IS NULL THEN
    DELETE FROM search_postings AS posting
    USING unnest(listing_posted_keys(OLD."searchWords", OLD."attributeTerms")) AS posted(key)
    WHERE posting.key = posted.key
      AND posting.price = OLD.price
      AND posting."createdAt" = OLD."createdAt"
      AND posting."listingId" = OLD.id;
    DELETE FROM search_other_words WHERE "listingId" = OLD.id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'AVAILABLE' AND NEW."deletedAt" IS NULL THEN
    INSERT INTO search_postings (key, price, "createdAt", "listingId")
    SELECT posted.key, NEW.price, NEW."createdAt", NEW.id
    FROM unnest(listing_posted_keys(NEW."searchWords", NEW."attributeTerms")) AS posted(key);
    INSERT INTO search_other_words ("listingId", words)
    SELECT NEW.id, other.words
    FROM listing_other_word_text(NEW.title, NEW.description, NEW."searchWords") AS other(words)
    WHERE other.words IS NOT NULL;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER listing_search_postings_on_update ON listings;
--> statement-breakpoint
CREATE TRIGGER listing_search_postings_on_update
AFTER UPDATE OF title, description, attributes, price, status, "createdAt", "deletedAt" ON listings
FOR EACH ROW
WHEN ((OLD.title, OLD.description, OLD.attributes, OLD.price, OLD.status, OLD."createdAt", OLD."deletedAt" IS NULL)
  IS DISTINCT FROM (NEW.title, NEW.description, NEW.attributes, NEW.price, NEW.status, NEW."createdAt", NEW."deletedAt" IS NULL))
EXECUTE FUNCTION listing_search_postings_track();
--> statement-breakpoint
-- The price band trigger of 0022: a band counts its available listings out of the trash.
CREATE OR REPLACE FUNCTION listing_price_band_totals_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  WITH changes AS (
    SELECT OLD."categoryId" AS "categoryId", listing_price_band(OLD.price) AS band, -1 AS delta
      WHERE TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'AVAILABLE' AND OLD."deletedAt" IS NULL
    UNION ALL
    SELECT NEW."categoryId", listing_price_band(NEW.price), 1
      WHERE TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'AVAILABLE' AND NEW."deletedAt" IS NULL
  ), net AS (
    SELECT "categoryId", band, sum(delta)::integer AS delta FROM changes
    GROUP BY "categoryId", band HAVING sum(delta) <> 0
  )
  INSERT INTO listing_price_band_totals AS kept ("categoryId", band, listings)
  SELECT "categoryId", band, delta FROM net ORDER BY "categoryId", band
  ON CONFLICT ("categoryId", band) DO UPDATE SET listings = kept.listings + excluded.listings;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER listing_price_band_totals_on_update ON listings;
--> statement-breakpoint
CREATE TRIGGER listing_price_band_totals_on_update AFTER UPDATE OF price, status, "categoryId", "deletedAt" ON listings
FOR EACH ROW WHEN (OLD.price IS DISTINCT FROM NEW.price OR OLD.status IS DISTINCT FROM NEW.status OR OLD."categoryId" IS DISTINCT FROM NEW."categoryId"
  OR (OLD."deletedAt" IS NULL) IS DISTINCT FROM (NEW."deletedAt" IS NULL))
EXECUTE FUNCTION listing_price_band_totals_track();
--> statement-breakpoint
-- The rebuilds (after a bulk load with the triggers set aside) count the listings out of the trash.
CREATE OR REPLACE FUNCTION search_terms_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM search_terms;
  INSERT INTO search_terms (kind, term, text, listings)
  SELECT offered.kind, offered.term, min(offered.text), count(*)
  FROM listings AS listing, listing_search_terms(listing) AS offered
  WHERE listing.status = 'AVAILABLE' AND listing."deletedAt" IS NULL
  GROUP BY offered.kind, offered.term;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_statistics_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM listing_totals;
  INSERT INTO listing_totals ("categoryId", status, listings, value, stock, commissioned, "commissionPercentSum", "commissionValue")
  SELECT "categoryId", status, count(*), sum(price), sum("stockQuantity"),
    count("commissionPercent"), coalesce(sum("commissionPercent"), 0), coalesce(sum(price * "commissionPercent" / 100), 0)
  FROM listings
  WHERE "deletedAt" IS NULL
  GROUP BY "categoryId", status;
  DELETE FROM agent_listing_totals;
  INSERT INTO agent_listing_totals ("agentId", status, listings)
  SELECT "agentId", status, count(*)
  FROM listings
  WHERE "agentId" IS NOT NULL AND "deletedAt" IS NULL
  GROUP BY "agentId", status;
  DELETE FROM listing_attribute_values;
  INSERT INTO listing_attribute_values ("categoryId", field, value, listings)
  SELECT listing."categoryId", offered.field, offered.value, count(*)
  FROM listings AS listing, listing_filter_values(listing) AS offered
  WHERE listing.status = 'AVAILABLE' AND listing."deletedAt" IS NULL
  GROUP BY listing."categoryId", offered.field, offered.value;
  SELECT search_terms_rebuild();
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_postings_rebuild() RETURNS void
LANGUAGE sql
AS $$
  TRUNCATE search_postings, search_other_words;
  INSERT INTO search_postings (key, price, "createdAt", "listingId")
  SELECT posted.key, listing.price, listing."createdAt", listing.id
  FROM listings AS listing, unnest(listing_posted_keys(listing."searchWords", listing."attributeTerms")) AS posted(key)
  WHERE listing.status = 'AVAILABLE' AND listing."deletedAt" IS NULL;
  INSERT INTO search_other_words ("listingId", words)
  SELECT listing.id, other.words
  FROM listings AS listing, listing_other_word_text(listing.title, listing.description, listing."searchWords") AS other(words)
  WHERE listing.status = 'AVAILABLE' AND listing."deletedAt" IS NULL AND other.words IS NOT NULL;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION listing_price_band_totals_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM listing_price_band_totals;
  INSERT INTO listing_price_band_totals ("categoryId", band, listings)
  SELECT "categoryId", listing_price_band(price), count(*)
  FROM listings
  WHERE status = 'AVAILABLE' AND "deletedAt" IS NULL
  GROUP BY 1, 2;
$$;
--> statement-breakpoint
-- Reads add "deletedAt" IS NULL to their conditions: without statistics for the new column the
-- planner would take it to keep one row in two hundred, and choose other plans.
ANALYZE listings ("deletedAt");
