import { getServiceInfo } from '../lib/docs/service-info.js';
import { ServiceInfoView } from '../lib/docs/view.js';
import { answers } from '../lib/http/success-answer.js';
import { endpoint, route } from '../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'The service: its name, version and where to read about it',
    access: 'public',
    answer: answers.dataOrHtml(ServiceInfoView),
    handle: getServiceInfo,
    description: 'Also at `/`. `data.links` gives the reference page, this document and the liveness check. A browser (`Accept` naming `text/html` above JSON) gets the same as an HTML page with those links; the answer varies by `Accept`.',
  }),
});
