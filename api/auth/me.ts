import { getOwnProfile, updateOwnProfile } from '../../lib/auth/profile-handlers.js';
import { ProfileUpdateBody, profileForm } from '../../lib/auth/profile-schema.js';
import { endpoint, route } from '../../lib/service-route.js';

export default route({
  GET: endpoint('token', {}, getOwnProfile),
  PUT: endpoint('token', { body: ProfileUpdateBody, form: profileForm }, updateOwnProfile),
});
