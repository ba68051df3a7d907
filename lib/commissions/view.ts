import * as v from 'valibot';
import { RecordId } from '../http/common-views.js';
import { ListingFields } from '../listings/view.js';

const Count = v.pipe(v.number(), v.integer());

const StatusCounts = v.object({ AVAILABLE: Count, SOLD: Count, PENDING: Count, ARCHIVED: Count });

export const AssetStatsView = v.object({
  totalAssets: Count,
  totalValue: v.pipe(v.number(), v.description('The sum of every listing\'s price.')),
  totalStock: Count,
  AVAILABLE: Count,
  SOLD: Count,
  PENDING: Count,
  ARCHIVED: Count,
  byCategory: v.array(
    v.object({
      categoryId: RecordId,
      categoryName: v.string(),
      categoryDisplayName: v.string(),
      icon: v.string(),
      count: Count,
      totalValue: v.number(),
      totalStock: Count,
      statusCounts: StatusCounts,
    }),
  ),
});

export type AssetStatsView = v.InferOutput<typeof AssetStatsView>;

export const CommissionSummaryView = v.object({
  totalListings: v.pipe(Count, v.description('Listings with a commission set.')),
  totalCommissionPercent: v.pipe(v.number(), v.description('Their average percent, 2 decimals.')),
  totalEstimatedRevenue: v.number(),
  collectedCommission: v.pipe(v.number(), v.description('Over SOLD listings.')),
  pendingCommission: v.pipe(v.number(), v.description('Over AVAILABLE and PENDING listings.')),
});

export type CommissionSummaryView = v.InferOutput<typeof CommissionSummaryView>;

export const CommissionListingView = v.pipe(
  v.object({ ...ListingFields, commissionAmount: v.nullable(v.number()) }),
  v.title('CommissionListing'),
);

export type CommissionListingView = v.InferOutput<typeof CommissionListingView>;
