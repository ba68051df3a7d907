import { resetPassword } from '../../lib/auth/password-reset.js';
import { ResetPasswordBody } from '../../lib/auth/schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint('public', { body: ResetPasswordBody }, resetPassword),
});
