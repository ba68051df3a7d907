import { getAssetStats } from '../../lib/commissions/handlers.js';
import { AssetStatsView } from '../../lib/commissions/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'Listing counts, stock and value, overall and by category',
    access: 'admin',
    answer: answers.data(AssetStatsView),
    handle: getAssetStats,
  }),
});
