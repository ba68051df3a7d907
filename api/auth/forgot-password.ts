import { forgotPassword } from '../../lib/auth/password-reset.js';
import { ForgotPasswordBody } from '../../lib/auth/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint('public', { body: ForgotPasswordBody }, forgotPassword),
});
