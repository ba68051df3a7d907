import { getDb } from '../db/client.js';
import { inTransaction } from '../db/transaction.js';
import { notFoundError } from '../http/api-error.js';
import type { IdParams } from '../http/common-schemas.js';
import { ok, paginated, pagination, type DataReply, type PageReply } from '../http/reply.js';
import type { RequestContext } from '../http/endpoint.js';
import type { Input } from '../http/endpoint-input.js';
import { recordListingAudit } from '../listings/audit.js';
import { findListingDetails, lockListing } from '../listings/queries.js';
import { findPhotoRecords } from '../media/photo-records.js';
import { assetStatsPresenter, commissionListingPresenter } from './presenter.js';
import { assetStatistics, commissionSummary, listCommissionListings, setCommissionPercent } from './queries.js';
import type { CommissionListingsQuery, CommissionUpdateBody } from './schema.js';
import type { AssetStatsView, CommissionListingView, CommissionSummaryView } from './view.js';

export async function getAssetStats(): Promise<DataReply<AssetStatsView>> {
  return ok(assetStatsPresenter(await assetStatistics(await getDb())));
}

export async function getCommissionSummary(): Promise<DataReply<CommissionSummaryView>> {
  return ok(await commissionSummary(await getDb()));
}

export async function listListingCommissions({ query }: Input<{ query: typeof CommissionListingsQuery }>): Promise<PageReply<CommissionListingView>> {
  const db = await getDb();
  const { rows, total } = await listCommissionListings(db, query);
  const photos = await findPhotoRecords(db, rows.flatMap((row) => row.images));
  return paginated(
    rows.map((row) => commissionListingPresenter(row, photos)),
    pagination(query.page, query.limit, total),
  );
}

export async function updateListingCommission(
  { params, body }: Input<{ params: typeof IdParams; body: typeof CommissionUpdateBody }>,
  ctx: RequestContext<'admin'>,
): Promise<DataReply<CommissionListingView>> {
  const db = await getDb();
  const row = await inTransaction(db, async (tx) => {
    const before = await lockListing(tx, params.id);
    if (!before) throw notFoundError('Listing', params.id);
    const after = await setCommissionPercent(tx, params.id, body.commissionPercent);
    await recordListingAudit(tx, ctx, 'update', before, after);
    return findListingDetails(tx, params.id);
  });
  if (!row) throw notFoundError('Listing', params.id);
  return ok(commissionListingPresenter(row, await findPhotoRecords(db, row.images)));
}
