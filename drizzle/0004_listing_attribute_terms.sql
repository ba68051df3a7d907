-- Every attribute of a listing as lower-cased text under its lower-cased name, whatever its JSON
-- type, so the storefront's case-insensitive whole-value filters become one indexable containment:
-- listing_attribute_terms(attributes) @> '{"brand": "apple", "beds": "3"}'.
CREATE OR REPLACE FUNCTION listing_attribute_terms(attributes jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
AS $$
  SELECT coalesce(jsonb_object_agg(lower(key), lower(value)), '{}'::jsonb) FROM jsonb_each_text(attributes)
$$;
