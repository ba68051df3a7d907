import { endpoint, route } from '../../lib/service-route.js';
import { getSettings, updateSettings } from '../../lib/settings/handlers.js';
import { SettingsUpdateBody } from '../../lib/settings/schema.js';

export default route({
  GET: endpoint('public', {}, getSettings, { edgeCache: { tags: () => ['settings'] } }),
  PUT: endpoint('admin', { body: SettingsUpdateBody }, updateSettings),
});
