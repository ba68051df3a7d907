import { endpoint, route } from '../../../lib/service-route.js';
import { listConfigs, saveConfig } from '../../../lib/syndication/config-handlers.js';
import { ConfigBody } from '../../../lib/syndication/schema.js';

export default route({
  GET: endpoint('token', {}, listConfigs),
  POST: endpoint('admin', { body: ConfigBody }, saveConfig),
});
