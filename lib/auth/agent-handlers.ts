import { getDb } from '../db/client.js';
import { notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { ok, paginated, pagination, type Reply } from '../http/reply.js';
import type { Input } from '../http/route.js';
import { profilePresenter } from './presenter.js';
import { deleteAgent, listAgents } from './queries.js';
import type { AdminListQuery } from './schema.js';

export async function listAgentAccounts({ query }: Input<{ query: typeof AdminListQuery }>): Promise<Reply> {
  const { items, total } = await listAgents(await getDb(), query);
  return paginated(items.map(profilePresenter), pagination(query.page, query.limit, total));
}

/** D24: agents only; their listings stay (without an agent) and their notifications go with them. */
export async function removeAgent({ params }: Input<{ params: typeof IdParams }>): Promise<Reply> {
  if (!(await deleteAgent(await getDb(), params.id))) throw notFoundError('Agent', params.id);
  return ok({ id: params.id });
}
