import { photosPresenter } from '../media/photo-presenter.js';
import type { PhotoRecords } from '../media/photo-records.js';
import { publicImageUrl } from '../media/public-image-url.js';
import type { ListingDetailRow } from './queries.js';
import type { ListingView } from './view.js';

/**
 * The listing as every listing response shows it: money as JSON numbers, images as absolute URLs,
 * the same images as `photos` (sizes, placeholder, srcset), with its category and agent.
 */
export function listingPresenter(row: ListingDetailRow, photos: PhotoRecords): ListingView {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    price: Number(row.price),
    status: row.status,
    city: row.city,
    neighborhood: row.neighborhood,
    images: row.images.map(publicImageUrl),
    photos: photosPresenter(row.images, photos),
    attributes: row.attributes,
    customTelegramCaption: row.customTelegramCaption,
    categoryId: row.categoryId,
    agentId: row.agentId,
    viewsCount: row.viewsCount,
    inquiryClicks: row.inquiryClicks,
    stockQuantity: row.stockQuantity,
    commissionPercent: row.commissionPercent === null ? null : Number(row.commissionPercent),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    deletedAt: row.deletedAt,
    removedCategory: row.removedCategory,
    category: row.category,
    agent: row.agent,
  };
}
