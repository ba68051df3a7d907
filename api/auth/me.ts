import { limitCurrentPasswordFailures } from '../../lib/auth/password-guess-limits.js';
import { getOwnProfile, updateOwnProfile } from '../../lib/auth/profile-handlers.js';

import { profileForm, ProfileUpdateBody } from '../../lib/auth/profile-schema.js';
import { ProfileView } from '../../lib/auth/view.js';
import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint({
    summary: 'The caller\'s profile',
    access: 'token',
    answer: answers.data(ProfileView),
    handle: getOwnProfile,
  }),
  PUT: endpoint({
    summary: 'Update the caller\'s profile',
    access: 'token',
    schemas: { body: ProfileUpdateBody, form: profileForm },
    answer: answers.data(ProfileView),
    handle: updateOwnProfile,
    errors: ['CURRENT_PASSWORD_INCORRECT', 'ALREADY_EXISTS', 'PASSWORD_CHECKS_BUSY'],
    rateLimit: { inHandler: [limitCurrentPasswordFailures] },
    description: 'Changing `email` needs `currentPassword` (403 `Current password is incorrect` when missing or wrong). Wrong current passwords count like failed sign-ins of the account: after 5 within 15 minutes, 429 with `Retry-After`, even for the right one.',
  }),
});
