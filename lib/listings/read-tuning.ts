/**
 * Every number that tunes how a list of listings is read, with the reason for its value. They
 * trade rows read against statements run; none changes an answer, only its cost (and, past the
 * counted matches, how close an estimated total is).
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

/**
 * The most candidates in price order a filtered page reads and checks from one source: the
 * listings of one of the search's words or attribute filters, from its postings
 * (search-postings.ts), or the listings its status and category give, from their price index.
 * Matches that are common among them fill a page within them. Matches that cluster elsewhere in
 * the price order (phones, when laptops are the dearest listings), and those the other filters
 * reject nearly always (a word and a brand it never meets), are found through their filters' own
 * indexes instead: those beyond a price bound first, every match sorted when that bound keeps too
 * few.
 */
export const PRICE_WALK_WINDOW = 2_000;

/**
 * The first candidates of a source read before the rest of PRICE_WALK_WINDOW: when none of them
 * matches, the other filters reject nearly all of its listings, and the next source is tried; when
 * none of the tried sources' do, the matches are few.
 */
export const PRICE_PROBE = 500;

/**
 * How many sources a price-ordered page tries, fewest candidates first, before the filters' own
 * indexes: a third source rarely holds the page when two did not, and each try is a statement.
 */
export const TRIED_SOURCES = 2;

/**
 * How many times the matches a page needs a price bound should keep, by the probe's estimate: room
 * for chance, since a bound that keeps too few is tried in vain.
 */
export const BOUND_MARGIN = 3;

/**
 * The newest matches a relevance order ranks. Ranking every match of a broad word (a brand, among
 * a million listings) would read and sort all of them for each page; past these, matches follow
 * newest first, which is what a shopper scrolling that far sees anyway.
 */
export const RANKED_MATCHES = 200;

/**
 * The most posted words one search word may stand for: a short run held by many words (`pro` in
 * a shop of thousands of models) is read the way other searches are.
 */
export const MOST_POSTED_WORDS = 64;

/**
 * The most listings that may hold a search word only among their other words (their description):
 * each is read and sorted with the postings. A word found in more descriptions is common, and a
 * walk in price order finds its matches soon anyway.
 */
export const MOST_OTHER_LISTINGS = 1_000;

/**
 * How far an attribute term's postings are counted (an index-only read of at most this many
 * entries): enough to tell whether a price-ordered page's first candidates hold them all. How
 * broad a term is comes from the kept attribute values.
 */
export const COUNTED_TERM_POSTINGS = 2_000;

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

/**
 * From this many rows (offset and limit) on, a price-band page reads from each band a share of
 * them in proportion to the band's kept count, instead of all of them from every band: a deep
 * page over many bands would otherwise read the bands times the rows it needs. Nearer pages read
 * all of them from each band: few enough, and one statement.
 */
export const BAND_QUOTA_FROM = 1_000;

/**
 * How many times its proportional share a band's quota is: room for chance, since a band's
 * listings are not spread evenly in time. A band that gives all its quota before the page's last
 * row is read again in full (the answer is never short).
 */
export const BAND_QUOTA_ROOM = 1.5;

/**
 * The most postings a search read from the postings newest first may hold in all (its conditions'
 * kept counts added up): merging and intersecting them reads at most that many index entries,
 * about 20 ms at this size, so its pages at any depth and its exact count stay within budget.
 * A search holding more is read so only for a deep page, which walking the newest listings would
 * cost far more, or when it is one condition alone (nothing to intersect: its pages and its count,
 * which stops at 10,000, read no more entries than they need); otherwise its near pages are
 * walked, and its total counted, as other searches' are.
 */
export const MERGED_POSTINGS = 100_000;
