-- The storefront's `amenities` filter through an index. A listing's amenities, lower-cased and
-- trimmed, whether stored as a JSON array or a comma-separated string (as the filter has always
-- read them); the index holds only available listings that name amenities, so a catalogue without
-- any pays nothing for it, and a filter no listing meets is answered without reading a row.
CREATE FUNCTION listing_amenities(attributes jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT CASE jsonb_typeof(attributes -> 'amenities')
    WHEN 'array' THEN array(SELECT lower(btrim(item)) FROM jsonb_array_elements_text(attributes -> 'amenities') AS item)
    WHEN 'string' THEN array(SELECT lower(btrim(item)) FROM unnest(string_to_array(attributes ->> 'amenities', ',')) AS item)
    ELSE array[]::text[]
  END
$$;
--> statement-breakpoint
CREATE INDEX "listings_available_amenities_idx" ON "listings" USING gin (listing_amenities("attributes")) WHERE "listings"."status" = 'AVAILABLE' and "listings"."attributes" ? 'amenities';
