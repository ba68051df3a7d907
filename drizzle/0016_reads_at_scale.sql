-- Reads at a million listings. The storefront's attribute filters move from an expression
-- rechecked on every candidate row to a stored column with per-term statistics; categories, agents
-- and commissions read kept totals instead of counting listings; pages of a category and price
-- windows get their indexes.

-- Every attribute of a listing as `name=value`, both lower-cased, whatever its JSON type, so the
-- storefront's case-insensitive whole-value filters are one containment:
-- "attributeTerms" @> '{brand=apple,storage=128gb}'. Names never hold `=`, so a term is unambiguous.
CREATE FUNCTION listing_attribute_term_list(attributes jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$
  SELECT coalesce(array_agg(lower(key) || '=' || lower(value) ORDER BY key), '{}') FROM jsonb_each_text(attributes)
$$;
--> statement-breakpoint
CREATE TABLE "agent_listing_totals" (
	"agentId" uuid NOT NULL,
	"status" "ListingStatus" NOT NULL,
	"listings" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "agent_listing_totals_agentId_status_pk" PRIMARY KEY("agentId","status")
);
--> statement-breakpoint
DROP INDEX "listings_status_idx";--> statement-breakpoint
DROP INDEX "listings_categoryId_idx";--> statement-breakpoint
DROP INDEX "listings_available_attribute_terms_idx";--> statement-breakpoint
DROP STATISTICS listings_attribute_terms_stats;--> statement-breakpoint
DROP FUNCTION listing_attribute_terms(jsonb);--> statement-breakpoint
DROP INDEX "listings_categoryId_status_idx";--> statement-breakpoint
ALTER TABLE "listing_totals" ADD COLUMN "commissioned" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_totals" ADD COLUMN "commissionPercentSum" numeric DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_totals" ADD COLUMN "commissionValue" numeric DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "attributeTerms" text[] GENERATED ALWAYS AS (listing_attribute_term_list("listings"."attributes")) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "listings_attributeTerms_idx" ON "listings" USING gin ("attributeTerms");--> statement-breakpoint
CREATE INDEX "listings_categoryId_status_createdAt_idx" ON "listings" USING btree ("categoryId","status","createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "listings_price_idx" ON "listings" USING btree ("price");--> statement-breakpoint
CREATE INDEX "listings_commissioned_createdAt_idx" ON "listings" USING btree ("createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "listings"."commissionPercent" is not null;--> statement-breakpoint
CREATE INDEX "listings_uncommissioned_createdAt_idx" ON "listings" USING btree ("createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "listings"."commissionPercent" is null;--> statement-breakpoint
-- One trigram index over title and description as one text: a substring search reads one
-- posting list per trigram instead of two.
DROP INDEX "listings_title_trgm_idx";--> statement-breakpoint
DROP INDEX "listings_description_trgm_idx";--> statement-breakpoint
CREATE INDEX "listings_text_trgm_idx" ON "listings" USING gin (("title" || E'\n' || "description") gin_trgm_ops);
--> statement-breakpoint
-- The trigger of 0011, also keeping the commission figures per category and status and the
-- listings per agent and status. Net deltas per key, written in key order and one table after the
-- other (totals, agents, values), so concurrent writes take these row locks in one order.
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
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER listing_statistics_on_update ON listings;
--> statement-breakpoint
CREATE TRIGGER listing_statistics_on_update
AFTER UPDATE OF "categoryId", status, price, "stockQuantity", attributes, "commissionPercent", "agentId" ON listings
FOR EACH ROW
WHEN ((OLD."categoryId", OLD.status, OLD.price, OLD."stockQuantity", OLD.attributes, OLD."commissionPercent", OLD."agentId")
  IS DISTINCT FROM (NEW."categoryId", NEW.status, NEW.price, NEW."stockQuantity", NEW.attributes, NEW."commissionPercent", NEW."agentId"))
EXECUTE FUNCTION listing_statistics_track();
--> statement-breakpoint
-- Recomputes every kept total from the listings: for the existing rows here, and after a bulk
-- load that ran with the triggers disabled.
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
$$;
--> statement-breakpoint
SELECT listing_statistics_rebuild();
--> statement-breakpoint
ANALYZE listings;
