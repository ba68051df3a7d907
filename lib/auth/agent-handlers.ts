import { changesBetween } from '../audit/changes.js';
import { recordAudit } from '../audit/record.js';
import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { ok, paginated, pagination, type DataReply, type PageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { profilePresenter } from './presenter.js';
import { deleteAgent, listAgents } from './queries.js';
import type { AdminListQuery } from './schema.js';
import type { DeletedView } from '../http/common-views.js';
import type { AgentView } from './view.js';

export async function listAgentAccounts({ query }: Input<{ query: typeof AdminListQuery }>): Promise<PageReply<AgentView>> {
  const { items, total } = await listAgents(await getDb(), query);
  return paginated(items.map(profilePresenter), pagination(query.page, query.limit, total));
}

/** Removes agents only (an administrator's id is not found); their listings stay (without an agent) and their notifications go with them. */
export async function removeAgent({ params }: Input<{ params: typeof IdParams }>, ctx: RequestContext<'admin'>): Promise<DataReply<DeletedView>> {
  await inTransaction(await getDb(), async (tx) => {
    const removed = await deleteAgent(tx, params.id);
    if (!removed) throw notFoundError('Agent', params.id);
    const changes = changesBetween(removed, null, ['email', 'name', 'phone', 'role']);
    await recordAudit(tx, ctx, { action: 'delete', entity: 'agent', entityId: params.id, changes });
  });
  return ok({ id: params.id });
}
