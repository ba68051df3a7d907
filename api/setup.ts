import { createFirstAdministrator, SETUP_FORM, SETUP_PAGE, SetupFields, SetupQuery, showSetupPage } from '../lib/auth/setup-handlers.js';
import { endpoint, route } from '../lib/service-route.js';

/** `/setup?token=…` (vercel.json): the one-time page that makes the first administrator. */
export default route({
  GET: endpoint({
    summary: 'The form that makes the first administrator',
    ...SETUP_PAGE,
    schemas: { query: SetupQuery },
    handle: showSetupPage,
  }),
  POST: endpoint({
    summary: 'Make the first administrator',
    ...SETUP_PAGE,
    schemas: { query: SetupQuery, body: SetupFields, form: SETUP_FORM },
    handle: createFirstAdministrator,
  }),
});
