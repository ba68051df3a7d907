import { IdParams } from '../../../../lib/http/common-schemas.js';
import { endpoint, route } from '../../../../lib/service-route.js';
import { limitInquiries, recordInquiry } from '../../../../lib/storefront/handlers.js';
import { InquiryBody } from '../../../../lib/storefront/schema.js';

export default route({
  POST: endpoint('public', { params: IdParams, body: InquiryBody }, recordInquiry, { rateLimit: limitInquiries }),
});
