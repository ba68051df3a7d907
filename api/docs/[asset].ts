import { AssetParams, getReferenceAsset } from '../../lib/docs/handlers.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'A file of the API reference page',
    access: 'public',
    schemas: { params: AssetParams },
    answer: answers.asset,
    handle: getReferenceAsset,
  }),
});
