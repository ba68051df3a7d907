import * as v from 'valibot';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';
import { suggest } from '../../lib/storefront/handlers.js';
import { SuggestQuery } from '../../lib/storefront/schema.js';
import { SuggestionView } from '../../lib/storefront/view.js';

export default route({
  GET: endpoint({
    summary: 'Complete a storefront search',
    access: 'public',
    schemas: { query: SuggestQuery },
    answer: answers.data(v.array(SuggestionView)),
    handle: suggest,
    edgeCache: { tags: () => ['listings', 'categories'] },
    description:
      'Up to 8 titles, brands, models and categories of AVAILABLE listings, each with `count`, the AVAILABLE listings behind it. ' +
      'The last word of `q` (2 to 100 characters, else 400) starts a word of the suggestion, or a known word one typo away from it does (two for 8 letters or more, none under 4); its other words appear in the suggestion. ' +
      'Completions of `q` as typed come first, then those with more listings.',
  }),
});
