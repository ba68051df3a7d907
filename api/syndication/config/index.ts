import * as v from 'valibot';
import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { listConfigs, saveConfig } from '../../../lib/syndication/config-handlers.js';
import { ConfigBody } from '../../../lib/syndication/schema.js';
import { ConfigView } from '../../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'List channel posting configurations (secrets masked)',
    access: 'token',
    answer: answers.data(v.array(ConfigView)),
    handle: listConfigs,
  }),
  POST: endpoint({
    summary: 'Create or update a channel posting configuration',
    access: 'admin',
    schemas: { body: ConfigBody },
    answer: answers.data(ConfigView),
    handle: saveConfig,
    successStatus: [200, 201],
  }),
});
