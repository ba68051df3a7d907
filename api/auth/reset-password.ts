import { resetPassword } from '../../lib/auth/password-reset.js';
import { ResetPasswordBody } from '../../lib/auth/schema.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'Set a new password with the e-mailed code',
    access: 'public',
    schemas: { body: ResetPasswordBody },
    answer: answers.message,
    handle: resetPassword,
    errors: ['INVALID_RESET_CODE', 'PASSWORD_CHECKS_BUSY'],
    description: 'Ends every token and device token the account had.',
  }),
});
