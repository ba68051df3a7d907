import packageJson from '../../package.json' with { type: 'json' };
import type { RequestContext } from '../http/endpoint.js';
import { asksForHtml, escapeHtml, htmlPage } from '../http/html-page.js';
import { ok, type ContentReply, type DataReply } from '../http/reply.js';
import type { ServiceInfoView } from './view.js';

const SERVICE_INFO: ServiceInfoView = {
  name: 'Marketplace Listing API',
  version: packageJson.version,
  links: { docs: '/api/docs', openapi: '/api/openapi.json', health: '/health' },
};

/** The same description as a page, for a person who opens the address in a browser. */
function frontPage(info: ServiceInfoView): ContentReply {
  const { docs, openapi, health } = info.links;
  return htmlPage(
    info.name,
    `<h1>${escapeHtml(info.name)}</h1>
<p>Version ${escapeHtml(info.version)}. A JSON HTTP API: programs asking this address get this description as JSON.</p>
<ul>
<li><a href="${docs}">API reference</a>: every endpoint, with a "Try it out" button</li>
<li><a href="${openapi}">OpenAPI document</a>: for client generators and API tools</li>
<li><a href="${health}">Health</a>: whether the service is up</li>
</ul>`,
  );
}

/**
 * `GET /` (and `GET /api`): what answers here, and where to read about it; a page for a browser
 * (`Accept: text/html`), JSON for everyone else. Caches keep the two apart by `Accept`.
 */
export async function getServiceInfo(_input: unknown, ctx: RequestContext): Promise<DataReply<ServiceInfoView> | ContentReply> {
  const reply = asksForHtml(ctx.request) ? frontPage(SERVICE_INFO) : ok(SERVICE_INFO);
  return { ...reply, headers: { ...reply.headers, Vary: 'Accept' } };
}
