import { listingPresenter } from '../listings/presenter.js';
import type { PhotoRecords } from '../media/photo-records.js';
import type { ListingDetailRow } from '../listings/queries.js';
import type { assetStatistics } from './queries.js';
import type { AssetStatsView, CommissionListingView } from './view.js';

type AssetStatistics = Awaited<ReturnType<typeof assetStatistics>>;

export function assetStatsPresenter({ totals, byCategory }: AssetStatistics): AssetStatsView {
  return {
    ...totals,
    byCategory: byCategory.map(({ AVAILABLE, SOLD, PENDING, ARCHIVED, ...category }) => ({
      ...category,
      statusCounts: { AVAILABLE, SOLD, PENDING, ARCHIVED },
    })),
  };
}

/**
 * price × percent / 100 to the cent, rounded half up. Both inputs have at most two decimals, so
 * the product is computed on whole cents and hundredths of a percent, where it is exact.
 */
export function commissionAmountOf(price: number, percent: number | null): number | null {
  if (percent === null) return null;
  const product = Math.round(price * 100) * Math.round(percent * 100);
  return Math.round(product / 10_000) / 100;
}

/** The listing as the listings API shows it, plus what its commission comes to. */
export function commissionListingPresenter(row: ListingDetailRow, photos: PhotoRecords): CommissionListingView {
  const listing = listingPresenter(row, photos);
  return { ...listing, commissionAmount: commissionAmountOf(listing.price, listing.commissionPercent) };
}
