import { changesBetween } from '../audit/changes.js';
import { recordAudit } from '../audit/record.js';
import { config } from '../config.js';
import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import type { IdParams } from '../http/common-schemas.js';
import { notFoundError } from '../http/api-error.js';
import { created, ok, paginated, pagination, type DataReply, type PageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { countWrongAgentCode } from './agent-code-limits.js';
import { findUsableAgentCode, insertAgentCode, listAgentCodes, revokeAgentCode } from './agent-code-queries.js';
import type { AdminListQuery, AgentCodeCreateBody, VerifyAgentCodeBody } from './schema.js';
import type { DeletedView } from '../http/common-views.js';
import type { AgentCodeCheckView, AgentCodeView, CreatedAgentCodeView } from './view.js';

/** With LEGACY_CLIENT_FIELDS on, the original admin panel's names beside the spec's. */
function agentCodeView<T extends { usable: boolean; useCount: number }>(code: T): T | (T & { isActive: boolean; uses: number }) {
  return config().legacyClientFields ? { ...code, isActive: code.usable, uses: code.useCount } : code;
}

export async function createAgentCode(
  { body }: Input<{ body: typeof AgentCodeCreateBody }>,
  ctx: RequestContext<'admin'>,
): Promise<DataReply<CreatedAgentCodeView>> {
  const code = await inTransaction(await getDb(), async (tx) => {
    const row = await insertAgentCode(tx, {
      createdById: ctx.user.id,
      agentName: body.name,
      agentPhone: body.phone,
      maxUses: body.maxUses,
      expiresInHours: body.expiresInHours,
    });
    const changes = changesBetween(null, row, ['code', 'agentName', 'agentPhone', 'maxUses', 'expiresAt']);
    await recordAudit(tx, ctx, { action: 'create', entity: 'agent-code', entityId: row.id, changes });
    return row;
  });
  // A new code is active and unused.
  return created(config().legacyClientFields ? { ...code, isActive: true, uses: 0 } : code);
}

export async function listCodes({ query }: Input<{ query: typeof AdminListQuery }>): Promise<PageReply<AgentCodeView>> {
  const { items, total } = await listAgentCodes(await getDb(), query);
  return paginated(items.map(agentCodeView), pagination(query.page, query.limit, total));
}

/** Revoking a code already revoked changes nothing, and leaves no audit entry. */
export async function revokeCode({ params }: Input<{ params: typeof IdParams }>, ctx: RequestContext<'admin'>): Promise<DataReply<DeletedView>> {
  const revoked = await inTransaction(await getDb(), async (tx) => {
    const outcome = await revokeAgentCode(tx, params.id);
    if (!outcome) throw notFoundError('Agent code', params.id);
    const changes = changesBetween(outcome.before, outcome.after, ['revokedAt']);
    if (Object.keys(changes).length > 0) await recordAudit(tx, ctx, { action: 'revoke', entity: 'agent-code', entityId: params.id, changes });
    return outcome.after;
  });
  return ok({ id: revoked.id });
}

/** Counted against the address's budget by the route (countAgentCodeCheck); a miss also shop-wide. */
export async function verifyAgentCode({ body }: Input<{ body: typeof VerifyAgentCodeBody }>): Promise<DataReply<AgentCodeCheckView>> {
  const code = await findUsableAgentCode(await getDb(), body.code);
  if (!code) {
    await countWrongAgentCode();
    return ok({ valid: false, agentName: null, agentPhone: null });
  }
  return ok({ valid: true, agentName: code.agentName, agentPhone: code.agentPhone });
}
