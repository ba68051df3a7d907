import { login } from '../../lib/auth/handlers.js';
import { LoginBody } from '../../lib/auth/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint('public', { body: LoginBody }, login),
});
