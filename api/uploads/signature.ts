import { endpoint, route } from '../../lib/http/route.js';
import { createUploadSignature } from '../../lib/media/upload-signature.js';

export default route({
  POST: endpoint('token', {}, createUploadSignature),
});
