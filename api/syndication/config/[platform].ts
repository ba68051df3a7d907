import { answers } from '../../../lib/http/success-answer.js';
import { endpoint, route } from '../../../lib/service-route.js';
import { deleteConfig, getConfig } from '../../../lib/syndication/config-handlers.js';
import { PlatformParams } from '../../../lib/syndication/schema.js';
import { ConfigDeletedView, ConfigView } from '../../../lib/syndication/view.js';

export default route({
  GET: endpoint({
    summary: 'One channel posting configuration (secrets masked)',
    access: 'token',
    schemas: { params: PlatformParams },
    answer: answers.data(ConfigView),
    handle: getConfig,
  }),
  DELETE: endpoint({
    summary: 'Delete a channel posting configuration',
    access: 'admin',
    schemas: { params: PlatformParams },
    answer: answers.data(ConfigDeletedView),
    handle: deleteConfig,
  }),
});
