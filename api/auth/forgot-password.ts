import { forgotPassword, limitResetRequests } from '../../lib/auth/password-reset.js';
import { ForgotPasswordBody } from '../../lib/auth/schema.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'E-mail a 6-digit password reset code',
    access: 'public',
    schemas: { body: ForgotPasswordBody },
    answer: answers.message,
    handle: forgotPassword,
    rateLimit: { beforeHandler: limitResetRequests },
    description: 'Always reports success, whether or not the e-mail belongs to an account. 429 after 5 requests an hour per e-mail and address, 20 per e-mail, and 30 per address across all e-mails.',
  }),
});
