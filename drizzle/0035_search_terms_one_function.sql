-- Migration 0033's text read differently for a while: it renamed migration 0032's
-- listing_search_terms() to listing_document_terms() and put a listing_search_terms() that left
-- out the spans in front of it. A database migrated then answers the same terms, through two
-- functions. This gives every database the one function migration 0033 defines, whichever text
-- it ran: on the others it changes nothing.
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
--> statement-breakpoint
DROP FUNCTION IF EXISTS listing_document_terms(listings);
