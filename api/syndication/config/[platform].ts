import { endpoint, route } from '../../../lib/service-route.js';
import { deleteConfig, getConfig } from '../../../lib/syndication/config-handlers.js';
import { PlatformParams } from '../../../lib/syndication/schema.js';

export default route({
  GET: endpoint('token', { params: PlatformParams }, getConfig),
  DELETE: endpoint('admin', { params: PlatformParams }, deleteConfig),
});
