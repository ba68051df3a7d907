import packageJson from '../../package.json' with { type: 'json' };
import { ok, type Reply } from '../http/reply.js';
import type { ServiceInfoView } from './view.js';

/** `GET /` (and `GET /api`): what answers here, and where to read about it. */
export async function getServiceInfo(): Promise<Reply> {
  const info: ServiceInfoView = {
    name: 'Marketplace Listing API',
    version: packageJson.version,
    links: { docs: '/api/docs', openapi: '/api/openapi.json', health: '/health' },
  };
  return ok(info);
}
