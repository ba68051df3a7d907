import { IdParams } from '../../../../lib/http/common-schemas.js';
import { answers } from '../../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../../lib/service-route.js';
import { limitInquiries, recordInquiry } from '../../../../lib/storefront/handlers.js';
import { InquiryBody } from '../../../../lib/storefront/schema.js';

export default route({
  POST: endpoint({
    summary: 'Count an inquiry click',
    access: 'public',
    schemas: { params: IdParams, body: InquiryBody },
    answer: answers.acknowledgement,
    handle: recordInquiry,
    rateLimit: { beforeHandler: limitInquiries },
    description: '429 after 30 inquiries a minute per address on one listing, or 60 per address across all listings.',
  }),
});
