import { answers } from '../../lib/http/success-answer.js';
import { endpoint, route } from '../../lib/service-route.js';
import { getSettings, updateSettings } from '../../lib/settings/handlers.js';
import { SettingsUpdateBody } from '../../lib/settings/schema.js';
import { SettingsView } from '../../lib/settings/view.js';

export default route({
  GET: endpoint({
    summary: 'Store settings',
    access: 'public',
    answer: answers.data(SettingsView),
    handle: getSettings,
    edgeCache: { tags: () => ['settings'] },
  }),
  PUT: endpoint({
    summary: 'Update store settings (null clears a key)',
    access: 'admin',
    schemas: { body: SettingsUpdateBody },
    answer: answers.data(SettingsView),
    handle: updateSettings,
  }),
});
