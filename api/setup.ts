import { countSetupRequest, createFirstAdministrator, SETUP_FORM, SetupFields, SetupQuery, showSetupPage } from '../lib/auth/setup-handlers.js';
import { endpoint, route } from '../lib/service-route.js';

/** `/setup?token=…` (vercel.json): the one-time page that makes the first administrator. */
export default route({
  GET: endpoint('public', { query: SetupQuery }, showSetupPage, { rateLimit: countSetupRequest }),
  POST: endpoint('public', { query: SetupQuery, body: SetupFields, form: SETUP_FORM }, createFirstAdministrator, { rateLimit: countSetupRequest }),
});
