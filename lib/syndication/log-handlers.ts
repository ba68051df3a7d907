import { getDb } from '../db/client.js';
import { paginated, pagination, type PageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import { logPresenter } from './presenter.js';
import { listLogs } from './queries.js';
import type { LogsFilter } from './schema.js';
import type { LogView } from './view.js';

/** The channel post log: an administrator's is every entry, an agent's those of their own listings. */
export async function listSyndicationLogs({ query }: { query: LogsFilter }, { user }: RequestContext<'token'>): Promise<PageReply<LogView>> {
  const { rows, total } = await listLogs(await getDb(), query, user.role === 'SUPER_ADMIN' ? undefined : user.id);
  return paginated(
    rows.map((row) => logPresenter(row.log, row.listing)),
    pagination(query.page, query.limit, total),
  );
}
