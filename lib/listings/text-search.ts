import { sql, type SQL } from 'drizzle-orm/sql/sql';
import { listings } from '../db/schema.js';

/**
 * A listing's title and description as one text, which the administrators' and agents' search
 * looks in, the expression `listings_text_trgm_idx` indexes (migration 0031). A search text never
 * holds the line break between them (searchText() turns control characters into spaces), so no
 * match spans the two.
 */
const listingText = sql`(${listings.title} || E'\\n' || ${listings.description})`;

/** The text a search looks for: control characters (line breaks, tabs) become spaces. */
function searchText(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** An ILIKE pattern for `text` anywhere, in which the caller's `%`, `_` and `\` match themselves. */
export function containsPattern(text: string): string {
  return `%${searchText(text).replace(/[\\%_]/g, '\\$&')}%`;
}

/** Title or description contains `text`, ignoring case (a substring, not stemmed full-text), served by the trigram index. */
export function textMatches(text: string): SQL {
  return sql`${listingText} ilike ${containsPattern(text)}`;
}
