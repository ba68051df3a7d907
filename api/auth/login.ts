import { login } from '../../lib/auth/handlers.js';
import { countUntrustedSignIn, limitDeviceFailures } from '../../lib/auth/password-guess-limits.js';
import { LoginBody } from '../../lib/auth/schema.js';
import { withSignInSlot } from '../../lib/auth/sign-in-slots.js';
import { SignInView } from '../../lib/auth/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  POST: endpoint({
    summary: 'Sign in and receive a bearer token and a device token',
    access: 'public',
    schemas: { body: LoginBody },
    answer: answers.data(SignInView),
    handle: login,
    errors: ['INVALID_CREDENTIALS', 'PASSWORD_CHECKS_BUSY'],
    rateLimit: { inHandler: [withSignInSlot, countUntrustedSignIn, limitDeviceFailures] },
    description: 'Answers `data: { user, token, deviceToken }`. Keep `deviceToken` on the device and send it as `deviceToken` with the next sign-in: with a live device token of the named account, only that device\'s own failures count (10 wrong passwords per 15 minutes, then 429) and its password check goes before all others, so strangers\' guesses can neither lock the owner out nor keep the owner waiting; each successful sign-in answers a new one, an account keeps its newest 10, and a password reset ends them all. Without one (or with one that is not live for the account): 429 after 10 attempts in 15 minutes per e-mail and address, 30 per address, and 50 per e-mail from addresses the account has not signed in from. In both cases, 429 with `Retry-After: 1` while two sign-ins from the same address (an IPv6 address by its /64) are still being checked, and 503 `PASSWORD_CHECKS_BUSY` with `Retry-After` when every place for password checks in the instance is taken. A wrong e-mail or password is 401 `Invalid email or password`.',
  }),
});
