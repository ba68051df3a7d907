import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { listPublicListings } from '../../../lib/storefront/handlers.js';
import { SERVED_RESULTS } from '../../../lib/storefront/read-plan.js';
import { PublicListingsQuery } from '../../../lib/storefront/schema.js';
import { PublicListingView } from '../../../lib/storefront/view.js';

export default route({
  GET: endpoint({
    summary: 'Search the storefront (available listings, by relevance with `q`, else newest first)',
    access: 'public',
    schemas: { query: PublicListingsQuery },
    answer: answers.pagesOnRequest(PublicListingView),
    handle: listPublicListings,
    edgeCache: { tags: () => ['listings', 'categories'] },
    description:
      '`pagination` is added when `page` is sent. ' +
      '`q` matches a listing when every word of it (split at spaces) is a substring of the title or description, ignoring case, ' +
      'or a word of the title, brand or model ignoring case and accents, or one typo (a letter added, missing, wrong, or two swapped) away from one; two typos for words of 8 letters or more, none under 4 letters. ' +
      'A word shorter than 3 characters or without a letter (`5g`, `m2`, `128`, `%`) matches only a whole word of the title, brand or model, ignoring case; punctuation alone matches nothing. ' +
      `Only the first ${SERVED_RESULTS.toLocaleString('en-US')} results are served: \`pagination.totalPages\` stops there, and a page past them (or past the last page) is empty. ` +
      '`sort=relevance` (the default with `q`) lists first every listing matching each word of `q` as typed in its title, brand or model, then the other matches (a word found only with typos or only in the description). ' +
      'Within each of the two, it ranks the newest 200 by, in order: the quality of the worst-matching word of `q` ' +
      '(a word of the title as typed, best; then a word of the brand or model as typed, or a substring of the title; then a word of the title, brand or model with typos; then a substring of the description only, last); ' +
      'then whether the title holds `q` whole; then the qualities of all words together; then newest first. When more than 200 of them match, the older ones follow, newest first. ' +
      'Without `q`, `relevance` is `newest`. An unknown `sort` is 400. ' +
      'Each item carries `hero` and `gallery` (URLs) and the same images as `heroPhoto` and `photos` (the `Photo` schema: size, placeholder, srcset).',
  }),
});
