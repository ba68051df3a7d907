import { register } from '../../lib/auth/handlers.js';
import { RegisterBody } from '../../lib/auth/schema.js';
import { endpoint, route } from '../../lib/http/route.js';

export default route({
  POST: endpoint('public', { body: RegisterBody }, register, { idempotent: true }),
});
