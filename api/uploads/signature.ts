import { endpoint, route } from '../../lib/service-route.js';
import { countUploadTicket, createUploadSignature } from '../../lib/media/upload-signature.js';

export default route({
  POST: endpoint('token', {}, createUploadSignature, { rateLimit: countUploadTicket }),
});
