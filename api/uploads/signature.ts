import { answers } from '../../lib/http/success-answer.js';
import { countUploadTicket, createUploadSignature } from '../../lib/media/upload-signature.js';
import { UploadTicketView } from '../../lib/media/upload-ticket-view.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'Sign direct uploads of images to the image host',
    access: 'token',
    answer: answers.data(UploadTicketView),
    handle: createUploadSignature,
    errors: ['NOT_CONFIGURED'],
    rateLimit: { beforeHandler: countUploadTicket },
    description: 'Returns the upload URL and the signed form `fields` to send with one `file` (multipart POST to `uploadUrl`) until `expiresAt`: a ticket makes one image, under its `publicId` (sending again replaces it), so ask for one ticket per photo (at most 60 an hour, 429 beyond). The image host stores the photo within 1200 x 2400 px as WebP in the service\'s folder; name the upload responses in a listing\'s `imageRefs`. An image no listing takes within a day is removed. 409 when images are kept on local disk.',
  }),
});
