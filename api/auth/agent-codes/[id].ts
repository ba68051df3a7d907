import { revokeCode } from '../../../lib/auth/agent-code-handlers.js';
import { IdParams } from '../../../lib/http/common-schemas.js';
import { DeletedView } from '../../../lib/http/common-views.js';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';

export default route({
  DELETE: endpoint({
    summary: 'Revoke an invitation code',
    access: 'admin',
    schemas: { params: IdParams },
    answer: answers.data(DeletedView),
    handle: revokeCode,
  }),
});
