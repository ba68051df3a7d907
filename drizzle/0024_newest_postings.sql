-- The search postings newest first, with the price last: the listings of a word or attribute term
-- (or of several, merged and intersected) newest first, within a price range, read from this index
-- alone, so a deep page skips its offset without reading a listing.
CREATE INDEX "search_postings_newest_idx" ON "search_postings" USING btree ("key","createdAt" DESC NULLS FIRST,"listingId" DESC NULLS FIRST,"price");
