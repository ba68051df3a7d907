-- listing_totals and listing_attribute_values follow every write to listings, so the asset figures
-- and the storefront's filter options read a few rows instead of scanning the listings.

-- The attribute values a listing offers as filter options: its scalar values, as text, while it
-- is available. Very long values are never filter options and would not fit the primary key.
CREATE FUNCTION listing_filter_values(listing listings)
RETURNS TABLE (field text, value text)
LANGUAGE sql STABLE
AS $$
  SELECT attribute.key, attribute.value #>> '{}'
  FROM jsonb_each(listing.attributes) AS attribute
  WHERE listing.status = 'AVAILABLE'
    AND jsonb_typeof(attribute.value) IN ('string', 'number', 'boolean')
    AND attribute.value #>> '{}' <> ''
    AND octet_length(attribute.key) <= 200
    AND octet_length(attribute.value #>> '{}') <= 2000
$$;
--> statement-breakpoint
-- Adds (sign 1) or takes away (sign -1) one listing from both tables.
CREATE FUNCTION listing_statistics_apply(listing listings, sign integer) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  INSERT INTO listing_totals AS total ("categoryId", status, listings, value, stock)
  VALUES (listing."categoryId", listing.status, sign, sign * listing.price, sign * listing."stockQuantity")
  ON CONFLICT ("categoryId", status) DO UPDATE
    SET listings = total.listings + excluded.listings,
        value = total.value + excluded.value,
        stock = total.stock + excluded.stock;

  INSERT INTO listing_attribute_values AS present ("categoryId", field, value, listings)
  SELECT listing."categoryId", offered.field, offered.value, sign
  FROM listing_filter_values(listing) AS offered
  ON CONFLICT ("categoryId", field, value) DO UPDATE
    SET listings = present.listings + excluded.listings;

  IF sign < 0 THEN
    DELETE FROM listing_attribute_values AS present
    USING listing_filter_values(listing) AS offered
    WHERE present."categoryId" = listing."categoryId"
      AND present.field = offered.field
      AND present.value = offered.value
      AND present.listings <= 0;
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION listing_statistics_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM listing_statistics_apply(OLD, -1);
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    PERFORM listing_statistics_apply(NEW, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER listing_statistics_on_insert_or_delete
AFTER INSERT OR DELETE ON listings
FOR EACH ROW EXECUTE FUNCTION listing_statistics_track();
--> statement-breakpoint
-- Only writes to the counted columns: a view or an inquiry click never touches the statistics.
CREATE TRIGGER listing_statistics_on_update
AFTER UPDATE OF "categoryId", status, price, "stockQuantity", attributes ON listings
FOR EACH ROW
WHEN ((OLD."categoryId", OLD.status, OLD.price, OLD."stockQuantity", OLD.attributes)
  IS DISTINCT FROM (NEW."categoryId", NEW.status, NEW.price, NEW."stockQuantity", NEW.attributes))
EXECUTE FUNCTION listing_statistics_track();
--> statement-breakpoint
-- Recomputes both tables from the listings: for the existing rows here, and after a bulk load
-- that ran with the triggers disabled.
CREATE FUNCTION listing_statistics_rebuild() RETURNS void
LANGUAGE sql
AS $$
  DELETE FROM listing_totals;
  INSERT INTO listing_totals ("categoryId", status, listings, value, stock)
  SELECT "categoryId", status, count(*), sum(price), sum("stockQuantity")
  FROM listings
  GROUP BY "categoryId", status;
  DELETE FROM listing_attribute_values;
  INSERT INTO listing_attribute_values ("categoryId", field, value, listings)
  SELECT listing."categoryId", offered.field, offered.value, count(*)
  FROM listings AS listing, listing_filter_values(listing) AS offered
  WHERE listing.status = 'AVAILABLE'
  GROUP BY listing."categoryId", offered.field, offered.value;
$$;
--> statement-breakpoint
SELECT listing_statistics_rebuild();
