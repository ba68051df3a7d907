-- The statistics trigger took the (category, status) totals row of a listing's old state, then
-- that of its new state, so two listings changing in opposite directions at once (one AVAILABLE ->
-- PENDING, the other PENDING -> AVAILABLE) locked the same two rows in opposite orders and
-- deadlocked. Every change is now applied as net deltas per key, written in key order, so all
-- transactions take these row locks in one order.
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

  INSERT INTO listing_totals AS total ("categoryId", status, listings, value, stock)
  SELECT (states[i])."categoryId", (states[i]).status, sum(signs[i]), sum(signs[i] * (states[i]).price), sum(signs[i] * (states[i])."stockQuantity")
  FROM generate_subscripts(signs, 1) AS i
  GROUP BY 1, 2
  ORDER BY 1, 2
  ON CONFLICT ("categoryId", status) DO UPDATE
    SET listings = total.listings + excluded.listings,
        value = total.value + excluded.value,
        stock = total.stock + excluded.stock;

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
DROP FUNCTION listing_statistics_apply(listings, integer);
