import { countSetupRequest, createFirstAdministrator, SETUP_FORM, SetupFields, SetupQuery, showSetupPage } from '../lib/auth/setup-handlers.js';
import { answers } from '../lib/http/success-answer.js';
import { endpoint, route } from '../lib/service-route.js';

/** `/setup?token=…` (vercel.json): the one-time page that makes the first administrator. */
export default route({
  GET: endpoint({
    summary: 'The form that makes the first administrator',
    access: 'public',
    schemas: { query: SetupQuery },
    answer: answers.html,
    handle: showSetupPage,
    rateLimit: { beforeHandler: countSetupRequest },
  }),
  POST: endpoint({
    summary: 'Make the first administrator',
    access: 'public',
    schemas: { query: SetupQuery, body: SetupFields, form: SETUP_FORM },
    answer: answers.html,
    handle: createFirstAdministrator,
    rateLimit: { beforeHandler: countSetupRequest },
  }),
});
