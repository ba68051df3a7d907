import { sql } from 'drizzle-orm/sql/sql';
import type { Executor } from '../db/client.js';
import { queryRows } from '../db/query-rows.js';
import { isPostedTerm, keptTermListings, keptWordListings } from '../listings/search-postings.js';
import { countListings } from '../db/kept-totals.js';
import { attributeTermsOf, categoryNamed, type PublicListingFilters } from './queries.js';

/** A storefront search whose every condition's matches are exactly the search postings of some keys. */
export interface PostedConditions {
  /** Each condition's keys: a word's known words, or one attribute term. */
  conditions: string[][];
  /** How many postings the keys hold in all, and the category its available listings, by the kept counts: at most this many index entries are merged. */
  postings: number;
}

/**
 * The search's conditions as the postings keys whose listings are exactly each one's matches:
 * every word's known words (when its matches are exactly their postings) and every attribute
 * term; a category is read from its own newest-first index beside them. Undefined when any
 * condition is not posted so (amenities, a word found elsewhere too, a term too long to be
 * posted) or when there is no condition.
 */
function postedKeysOf(filters: PublicListingFilters): string[][] | undefined {
  if (filters.amenities.length > 0) return undefined;
  const words = filters.search?.words;
  if (words?.length === 0 || words?.some((word) => word.posted === undefined)) return undefined;
  const terms = attributeTermsOf(filters);
  if (!terms.every(isPostedTerm)) return undefined;
  const conditions = [...(words ?? []).map((word) => word.posted!.keys), ...terms.map((term) => [term])];
  return conditions.length > 0 ? conditions : undefined;
}

/**
 * The search as postings, with how many postings its keys hold (a word's from search_terms, an
 * attribute term's from the kept attribute values of every category): one statement, asked only
 * when every condition is posted.
 */
export async function findPostedConditions(executor: Executor, filters: PublicListingFilters): Promise<PostedConditions | undefined> {
  const conditions = postedKeysOf(filters);
  if (!conditions) return undefined;
  const words = (filters.search?.words ?? []).flatMap((word) => word.posted!.keys);
  const kept = [keptWordListings(words), ...attributeTermsOf(filters).map(keptTermListings)];
  const [[counted], inCategory] = await Promise.all([
    queryRows<{ postings: number }>(executor, sql`select (${sql.join(kept, sql` + `)})::int as postings`),
    filters.category === undefined ? 0 : countListings(executor, { status: 'AVAILABLE', categoryId: categoryNamed(filters.category) }),
  ]);
  return { conditions, postings: counted!.postings + inCategory };
}
