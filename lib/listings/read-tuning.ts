/**
 * Every number that tunes how a list of listings is read by walking an index (the administrators'
 * and agents' lists, a deep storefront page without filters) or counted by a filter panel, with the
 * reason for its value. They trade rows read against statements run; none changes an answer, only
 * its cost (and, past the counted matches, how close a filter panel's estimate is). The storefront
 * search index's own numbers are in lib/storefront/document-reads.ts and lib/storefront/word-expansion.ts.
 */

/**
 * The newest listings a filtered page reads first, in index order. Dense matches (a common word,
 * a popular brand) fill a page within them, and their share of these listings is a fair estimate
 * of the total. From how many matches they hold, the page decides where to look next.
 */
export const PROBE_WINDOW = 2_000;

/**
 * The most listings a filtered page reads in index order, when the probe's matches say the page
 * lies within them. Past it the matches are sparse (or the filters anti-correlated, like a word no
 * listing of the chosen brand contains), where walking on would read the whole table: they are
 * found through the filters' own indexes instead.
 */
export const WALK_WINDOW = 10_000;

/**
 * A walk reads at least this many times the rows a page needs (its offset and limit), and the
 * probe at least PROBE_PER_WANTED times: a deep page of dense matches still fits within them.
 */
export const WALK_PER_WANTED = 4;
export const PROBE_PER_WANTED = 2;

/**
 * The window a walk grows to holds this many times the matches the page needs at the density the
 * last window showed: room for chance, since the matches are not spread evenly.
 */
export const WALK_ROOM = 1.5;

/**
 * A walk that grows at least multiplies its window by this much: at most three walks reach
 * WALK_WINDOW from PROBE_WINDOW, so a sparse search gives up on walking soon.
 */
export const WALK_GROWTH = 2.5;

/**
 * From this offset on, a page's ids are read from the index alone before its rows are: skipping
 * that many rows through the table would read each of them. Nearer pages read their rows directly.
 */
export const DEFERRED_FROM = 500;

/** Matching listings whose values a filter panel counts one by one: its counts are exact up to this many. */
export const COUNTED_LISTINGS = 1_000;

/**
 * About how many candidates (available listings, of the category when one is named) a filter
 * panel's sample holds when more listings match than are counted one by one: an option on 1 in
 * 100 of them is seen about 30 times.
 */
export const SAMPLED_CANDIDATES = 3_000;

/** The most table pages a filter panel's sample reads, however few of their rows are candidates: its cost. */
export const SAMPLED_PAGES = 1_500;
