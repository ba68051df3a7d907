import { answers } from '../../lib/http/success-answer.js';
import { COUNTED_LISTINGS, SAMPLED_CANDIDATES } from '../../lib/listings/read-tuning.js';
import { endpoint, route } from '../../lib/service-route.js';
import { getFilterOptions } from '../../lib/storefront/handlers.js';
import { FilterOptionsQuery } from '../../lib/storefront/schema.js';
import { FilterOptionsTotals, FilterOptionsView } from '../../lib/storefront/view.js';

export default route({
  GET: endpoint({
    summary: 'Filter values for a category',
    access: 'public',
    schemas: { query: FilterOptionsQuery },
    answer: answers.data(FilterOptionsView, FilterOptionsTotals),
    handle: getFilterOptions,
    edgeCache: { tags: () => ['listings', 'categories'] },
    description:
      'Per rule field, the values present among the category\'s AVAILABLE listings: a select field lists its own options that are present; any other field at most 100 values, those most listings carry, in natural order, with `hasMoreOptions: true` when it has more. ' +
      'Takes the list\'s filters: each field carries `counts`, the AVAILABLE listings each option would leave with the other filters (a field\'s own selection does not narrow its own counts; 0 when none), and beside `data` come `total`, `priceRange` `{ min, max }` of the filtered list and `countsExact`. ' +
      `A whole category is counted exactly from kept counts, and so are other filters matching at most ${COUNTED_LISTINGS.toLocaleString('en-US')} listings; past that, counts and total are estimated from a fixed sample of the table (about ${SAMPLED_CANDIDATES.toLocaleString('en-US')} candidates) and \`countsExact\` is false. ` +
      'Fields belong to a category, so without `category` `data` is `{}` while `total` and `priceRange` cover every available listing (a storefront\'s first screen); an unknown category matches no listing, as the list answers an empty page for it: `data` `{}`, `total` 0.',
  }),
});
