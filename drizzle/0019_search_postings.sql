-- Price order for broad storefront searches. Each word of an available listing's title, brand and
-- model, and each of its attribute terms, is kept with the listing's price (search_postings), so
-- the listings of a word or filter are read in price order straight from an index; the rest of its
-- title and description words are kept beside it (search_other_words), so a text found only there
-- is looked up through their own trigram index. A trigger on listings keeps both, row by row, for
-- available listings only. Titles get a trigram index of their own, so relevance finds the listings
-- with a word in the title without reading every description that holds it.
CREATE TABLE "search_other_words" (
	"listingId" uuid PRIMARY KEY NOT NULL,
	"words" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "search_postings" (
	"key" text NOT NULL,
	"price" numeric(12, 2) NOT NULL,
	"createdAt" timestamp (3) with time zone NOT NULL,
	"listingId" uuid NOT NULL,
	CONSTRAINT "search_postings_key_price_createdAt_listingId_pk" PRIMARY KEY("key","price","createdAt","listingId")
);
--> statement-breakpoint
CREATE INDEX "search_other_words_trgm_idx" ON "search_other_words" USING gin ("words" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "listings_title_trgm_idx" ON "listings" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
-- What a listing is posted under, each once: its search words, and its attribute terms short
-- enough for an index entry (a term holds `=`, which a search word never does; two attribute
-- names that differ only in case may give one term twice).
CREATE FUNCTION listing_posted_keys(search_words text[], attribute_terms text[]) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT coalesce(array_agg(DISTINCT key), '{}')
  FROM unnest(search_words || attribute_terms) AS key
  WHERE octet_length(key) <= 200
$$;
--> statement-breakpoint
-- The words of a title and description that are not among its search words, split as those are
-- (listing_search_word_list(), migration 0017): space-separated, or null when there are none.
CREATE FUNCTION listing_other_word_text(title text, description text, search_words text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
  SELECT string_agg(DISTINCT word, ' ' ORDER BY word)
  FROM regexp_split_to_table(lower(title || E'\n' || description), '[[:space:][:punct:]]+') AS word
  WHERE word <> '' AND NOT word = ANY (search_words)
$$;
--> statement-breakpoint
-- Takes a listing's old state out of the postings and puts its new one in, when available.
CREATE FUNCTION listing_search_postings_track() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'AVAILABLE' THEN
    DELETE FROM search_postings AS posting
    USING unnest(listing_posted_keys(OLD."searchWords", OLD."attributeTerms")) AS posted(key)
    WHERE posting.key = posted.key
      AND posting.price = OLD.price
      AND posting."createdAt" = OLD."createdAt"
      AND posting."listingId" = OLD.id;
    DELETE FROM search_other_words WHERE "listingId" = OLD.id;
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.status = 'AVAILABLE' THEN
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
CREATE TRIGGER listing_search_postings_on_insert_or_delete
AFTER INSERT OR DELETE ON listings
FOR EACH ROW
EXECUTE FUNCTION listing_search_postings_track();
--> statement-breakpoint
-- Views and inquiries change nothing the postings hold, and fire nothing.
CREATE TRIGGER listing_search_postings_on_update
AFTER UPDATE OF title, description, attributes, price, status, "createdAt" ON listings
FOR EACH ROW
WHEN ((OLD.title, OLD.description, OLD.attributes, OLD.price, OLD.status, OLD."createdAt")
  IS DISTINCT FROM (NEW.title, NEW.description, NEW.attributes, NEW.price, NEW.status, NEW."createdAt"))
EXECUTE FUNCTION listing_search_postings_track();
--> statement-breakpoint
-- Recomputes both from the available listings (after a bulk load with the trigger disabled).
CREATE FUNCTION search_postings_rebuild() RETURNS void
LANGUAGE sql
AS $$
  TRUNCATE search_postings, search_other_words;
  INSERT INTO search_postings (key, price, "createdAt", "listingId")
  SELECT posted.key, listing.price, listing."createdAt", listing.id
  FROM listings AS listing, unnest(listing_posted_keys(listing."searchWords", listing."attributeTerms")) AS posted(key)
  WHERE listing.status = 'AVAILABLE';
  INSERT INTO search_other_words ("listingId", words)
  SELECT listing.id, other.words
  FROM listings AS listing, listing_other_word_text(listing.title, listing.description, listing."searchWords") AS other(words)
  WHERE listing.status = 'AVAILABLE' AND other.words IS NOT NULL;
$$;
--> statement-breakpoint
SELECT search_postings_rebuild();
--> statement-breakpoint
ANALYZE search_postings;
--> statement-breakpoint
ANALYZE search_other_words;
