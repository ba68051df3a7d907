-- Storefront pages within a price range, newest first, at a cost that does not grow with the
-- catalogue. Available listings are grouped into price bands of round bounds (a shopper's usual
-- ceilings, 100, 250, 500, 1000, 2000, are bounds): a page reads the newest few of each band the
-- range touches from an index ordered newest first within each band, and merges them; its total is
-- the kept count of the bands the range holds whole plus a count of the one or two it cuts.

-- The bounds, cheapest first. A band holds the prices above one bound up to and including the
-- next (band 0: 0 and below; the last: above the last bound), so a ceiling at a bound keeps whole
-- bands. Finer where prices crowd, so a band a range cuts is small enough to count.
CREATE FUNCTION listing_price_band_bounds() RETURNS numeric[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT '{0,10,20,30,40,50,75,100,125,150,200,250,300,400,500,600,750,1000,1250,1500,2000,2500,3000,4000,5000,7500,10000,15000,20000,25000,30000,40000,50000,75000,100000,150000,200000,250000,300000,400000,500000,750000,1000000,2500000,5000000,10000000}'::numeric[]
$$;
--> statement-breakpoint
-- The number of bounds below the price: width_bucket counts the bounds at or below it. It names
-- the bounds' function, so it keeps the search path it was made with: an index build finds it
-- with none.
CREATE FUNCTION listing_price_band(price numeric) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
SET search_path FROM CURRENT
AS $$
  SELECT (width_bucket(price, listing_price_band_bounds()) - (price = ANY (listing_price_band_bounds()))::integer)::smallint
$$;
--> statement-breakpoint
CREATE TABLE "listing_price_band_totals" (
	"categoryId" uuid NOT NULL,
	"band" smallint NOT NULL,
	"listings" integer NOT NULL,
	CONSTRAINT "listing_price_band_totals_categoryId_band_pk" PRIMARY KEY("categoryId","band")
);
--> statement-breakpoint
ALTER TABLE "listing_price_band_totals" ADD CONSTRAINT "listing_price_band_totals_categoryId_categories_id_fk" FOREIGN KEY ("categoryId") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listings_available_priceBand_createdAt_idx" ON "listings" USING btree (listing_price_band("price"),"createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST,"price") WHERE "listings"."status" = 'AVAILABLE';--> statement-breakpoint
CREATE INDEX "listings_available_categoryId_priceBand_createdAt_idx" ON "listings" USING btree ("categoryId",listing_price_band("price"),"createdAt" DESC NULLS FIRST,"id" DESC NULLS FIRST,"price") WHERE "listings"."status" = 'AVAILABLE';--> statement-breakpoint
-- Keeps listing_price_band_totals for each written listing: the net change per (category, band),
-- written in key order, so concurrent writes take these row locks in one order.
CREATE FUNCTION listing_price_band_totals_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  WITH changes AS (
    SELECT OLD."categoryId" AS "categoryId", listing_price_band(OLD.price) AS band, -1 AS delta
      WHERE TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'AVAILABLE'
    UNION ALL
    SELECT NEW."categoryId", listing_price_band(NEW.price), 1
      WHERE TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'AVAILABLE'
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
CREATE TRIGGER listing_price_band_totals_on_insert_or_delete AFTER INSERT OR DELETE ON listings
FOR EACH ROW EXECUTE FUNCTION listing_price_band_totals_track();
--> statement-breakpoint
CREATE TRIGGER listing_price_band_totals_on_update AFTER UPDATE OF price, status, "categoryId" ON listings
FOR EACH ROW WHEN (OLD.price IS DISTINCT FROM NEW.price OR OLD.status IS DISTINCT FROM NEW.status OR OLD."categoryId" IS DISTINCT FROM NEW."categoryId")
EXECUTE FUNCTION listing_price_band_totals_track();
--> statement-breakpoint
-- Counts every available listing again: after a bulk load that set the trigger aside, and here for
-- the listings already stored.
CREATE FUNCTION listing_price_band_totals_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM listing_price_band_totals;
  INSERT INTO listing_price_band_totals ("categoryId", band, listings)
  SELECT "categoryId", listing_price_band(price), count(*)
  FROM listings
  WHERE status = 'AVAILABLE'
  GROUP BY 1, 2;
$$;
--> statement-breakpoint
SELECT listing_price_band_totals_rebuild();
--> statement-breakpoint
ANALYZE listings;
